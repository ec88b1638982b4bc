"""Every source file is named in its component's README, so a newcomer finds each module's job in one place.

A component is one of COMPONENTS (a folder with a README.md). A *source file* is a tracked (or untracked but
not ignored) file below it with a SOURCE_SUFFIXES ending that is not a test (see is_test). It is covered when
its file name appears, as text, in the nearest README.md on the way up from its folder to the component's
root: a sub-folder with its own README.md (bench/peers/sockjs_go/, for instance) covers its files there.

Why file names and not a parsed table: the READMEs are prose with tables, written for people; a name that
appears is a name a reader can search for, and the check stays independent of how each README lays it out.

Standard library only; needs git (the file list is git's, so build output such as site/dist/ or
client-java/target/ never counts).
"""

import os
import subprocess
import sys

#: The components whose READMEs index their modules (paths relative to the repository root).
COMPONENTS = ("bench", "server-python", "server-node", "client-java", "site", "docs/contract")

#: What counts as source: the languages the kit is written in.
SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".java", ".go", ".c", ".h", ".sh")

#: Folder names whose files are tests, fixtures or test support, not modules a reader looks up.
TEST_DIRS = frozenset({"tests", "test", "fixtures", "testdata"})


def is_test(path):
    """True for a test or test-support file: under a TEST_DIRS folder or Maven's src/test/, or named like a test
    (test_*.py, *_test.py, *_test.go, *.test.js, conftest.py). Package markers (__init__.py) count as tests here:
    they hold no job of their own to describe."""
    parts = path.split("/")
    name = parts[-1]
    if any(p in TEST_DIRS for p in parts[:-1]) or "/src/test/" in f"/{path}":
        return True
    return (name.startswith("test_") or name.endswith(("_test.py", "_test.go", ".test.js", ".test.mjs"))
            or name in ("conftest.py", "__init__.py"))


def repository_files(repo):
    """Files git tracks plus untracked ones it does not ignore, relative to `repo`, '/'-separated."""
    out = subprocess.run(["git", "-C", repo, "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                         check=True, capture_output=True).stdout.decode()
    return sorted({p for p in out.split("\0") if p and os.path.isfile(os.path.join(repo, p))})


def nearest_readme(repo, component, path):
    """The README.md closest to `path`, searching its folder and then each parent up to `component`."""
    folder = os.path.dirname(path)
    while True:
        candidate = f"{folder}/README.md"
        if os.path.isfile(os.path.join(repo, candidate)):
            return candidate
        if folder == component or not folder.startswith(component + "/"):
            return f"{component}/README.md"
        folder = os.path.dirname(folder)


def missing_from_readmes(repo, files=None):
    """[(source file, README that should name it)] for every source file whose name its nearest README lacks."""
    files = repository_files(repo) if files is None else files
    texts, missing = {}, []
    for component in COMPONENTS:
        for path in files:
            if not path.startswith(component + "/") or not path.endswith(SOURCE_SUFFIXES) or is_test(path):
                continue
            readme = nearest_readme(repo, component, path)
            if readme not in texts:
                try:
                    with open(os.path.join(repo, readme), encoding="utf-8") as fh:
                        texts[readme] = fh.read()
                except FileNotFoundError:
                    texts[readme] = ""
            if os.path.basename(path) not in texts[readme]:
                missing.append((path, readme))
    return missing


def main(argv):
    repo = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    missing = missing_from_readmes(os.path.normpath(repo))
    for path, readme in missing:
        print(f"{readme}: does not name {path} (add a line on its job)")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

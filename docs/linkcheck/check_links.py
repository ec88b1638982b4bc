"""Check the repository's Markdown: every relative link resolves, and README.md stays short.

A relative link must name a file or folder that exists; a link with a
``#fragment`` into a Markdown file must name one of that file's headings, by
GitHub's rule for heading ids (lower case, punctuation dropped, each space a
hyphen, repeated headings numbered -1, -2, ...), or an explicit
``<a id="...">``/``<a name="...">`` anchor. Links with a scheme (https:,
mailto:) are not followed: this checks the repository, not the network.

    python docs/linkcheck/check_links.py [REPO_ROOT]

prints one line per broken link (file:line: target: why) and exits 1, or says
how many links it checked and exits 0.
"""

import os
import re
import subprocess
import sys
import unicodedata
from urllib.parse import unquote

# The newcomer's page: what it is, the two commands, the first result, the
# targets, links. Anything longer belongs in a docs/ topic page. In bytes of
# UTF-8 (12 KB read as 12,000, the stricter of 12,000 and 12,288).
README_LIMIT_BYTES = 12_000

# Folders never searched when the tree is not a git checkout (installs and
# build outputs, as .gitignore lists them), and this checker's own fixtures,
# whose broken links are broken on purpose.
SKIPPED_DIRS = {".git", "node_modules", "target", ".stamps", "__pycache__", ".pytest_cache", "dist",
                "test-output", "scratch"}
FIXTURES = os.path.join("docs", "linkcheck", "fixtures")

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_HTML_ANCHOR = re.compile(r"<a\s[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target "title") and ![alt](src); the text may hold `code` and nested [..].
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_LINE_ANCHOR = re.compile(r"^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$")


def github_slug(heading):
    """The id GitHub gives a heading's text (its github-slugger rule): lower case, every character
    that is not a letter, digit, mark, space, hyphen or underscore dropped, each space a hyphen."""
    kept = [ch for ch in heading.lower()
            if ch in " -_" or unicodedata.category(ch)[0] in "LNM"]
    return "".join(kept).replace(" ", "-")


def _heading_text(markdown):
    """A heading's text as GitHub renders it: code spans keep their content, links their text,
    HTML tags and emphasis markers go."""
    text = _CODE_SPAN.sub(lambda m: m.group(2).strip(), markdown)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"(?<![\w])[*_]+|[*_]+(?![\w])", "", text)
    return text.strip()


def prose_lines(lines):
    """(line number, line) for every line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(lines, 1):
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
            continue
        if fence is not None:
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
            continue
        yield number, line


def anchors_of(markdown):
    """Every fragment a link may name in this Markdown text: heading ids (numbered when repeated)
    and explicit HTML anchors."""
    anchors, seen = set(), {}
    previous = ""
    for _, line in prose_lines(markdown.split("\n")):
        text = None
        atx = _ATX.match(line)
        if atx:
            text = atx.group(2) or ""
        elif _SETEXT.match(line) and previous.strip() and not previous.startswith((" " * 4, "\t")) \
                and not re.match(r"^\s*([-*+]|\d+[.)])\s", previous) and "|" not in previous:
            text = previous
        if text is not None:
            slug = github_slug(_heading_text(text))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
        anchors.update(a for a in _HTML_ANCHOR.findall(line))
        previous = line
    return anchors


def links_of(markdown):
    """(line number, target) of every link and image outside code: inline ones and reference
    definitions."""
    for number, line in prose_lines(markdown.split("\n")):
        ref = _REFERENCE_DEF.match(line)
        if ref:
            yield number, ref.group(1).strip("<>")
            continue
        prose = _CODE_SPAN.sub(lambda m: "\0" * len(m.group(0)), line)
        for m in _INLINE_LINK.finditer(prose):
            yield number, m.group(1).strip("<>")


def problem_with(root, source, target, read_anchors):
    """Why `target`, linked from the file `source` (relative to root), does not resolve; None if it does.
    read_anchors(path) gives the anchors of a Markdown file (cached by the caller)."""
    if not target or _SCHEME.match(target) or target.startswith("//"):
        return None
    path_part, _, fragment = target.partition("#")
    path_part = unquote(path_part)
    if path_part.startswith("/"):
        resolved = os.path.normpath(os.path.join(root, path_part.lstrip("/")))
    elif path_part:
        resolved = os.path.normpath(os.path.join(root, os.path.dirname(source), path_part))
    else:
        resolved = os.path.join(root, source)
    if not os.path.exists(resolved):
        return f"no such file: {os.path.relpath(resolved, root)}"
    if not fragment:
        return None
    if not resolved.endswith(".md"):
        if _LINE_ANCHOR.match(fragment):
            return None
        return f"#{fragment} points into {os.path.relpath(resolved, root)}, which has no headings to check"
    if unquote(fragment) not in read_anchors(resolved):
        return f"no heading with id #{fragment} in {os.path.relpath(resolved, root)}"
    return None


def repository_files(root, suffix):
    """The files whose names end with `suffix`, relative to root: what git tracks or would track
    (new files included, ignored installs excluded), or, outside a checkout, a walk that skips
    installs."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard",
                              "--", "*" + suffix], capture_output=True, text=True, check=True).stdout
        files = [f for f in out.split("\n") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".venv"))
            files += [os.path.relpath(os.path.join(folder, n), root) for n in names if n.endswith(suffix)]
    return sorted(f for f in files if os.path.isfile(os.path.join(root, f)))


def markdown_files(root):
    """The Markdown files to check, relative to root (repository_files), this checker's fixtures left out."""
    return [f for f in repository_files(root, ".md") if not f.startswith(FIXTURES + os.sep)]


def broken_links(root, files):
    """[(file, line, target, why)] for every link in `files` (relative to root) that does not resolve."""
    cache = {}

    def read_anchors(path):
        if path not in cache:
            with open(path, encoding="utf-8") as f:
                cache[path] = anchors_of(f.read())
        return cache[path]

    broken = []
    for source in files:
        with open(os.path.join(root, source), encoding="utf-8") as f:
            text = f.read()
        for number, target in links_of(text):
            why = problem_with(root, source, target, read_anchors)
            if why:
                broken.append((source, number, target, why))
    return broken


def readme_problem(root):
    """Why the top-level README.md is not a newcomer's page (too long); None when it is."""
    size = os.path.getsize(os.path.join(root, "README.md"))
    if size > README_LIMIT_BYTES:
        return (f"README.md is {size:,} bytes, over the {README_LIMIT_BYTES:,} limit: move the long material "
                f"into a topic page under docs/ and link it")
    return None


def run_command(argv, program, report):
    """Run a check as the command `program [REPO_ROOT]` (by default the repository this file is in):
    report(root, markdown files) gives the lines saying what is wrong and the line saying all is
    well. Prints them; returns the exit status: 0 all is well, 1 something is wrong, 2 a bad
    command line."""
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(f"usage: {program} [REPO_ROOT]", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[0] if argv else os.path.join(os.path.dirname(__file__), "..", ".."))
    problems, all_well = report(root, markdown_files(root))
    print("\n".join(problems) if problems else all_well)
    return 1 if problems else 0


def report(root, files):
    """What is wrong with the links in `files` and with README.md, and the line saying all is well."""
    problems = [f"{source}:{number}: ({target}): {why}"
                for source, number, target, why in broken_links(root, files)]
    size = readme_problem(root)
    if size:
        problems.append(size)
    return problems, (f"every relative link in {len(files)} Markdown files resolves; README.md is within "
                      f"{README_LIMIT_BYTES:,} bytes")


def main(argv):
    return run_command(argv, "check_links.py", report)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

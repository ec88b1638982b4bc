"""Check the repository's Markdown: no `file.py:NNN` line reference into our own Python code.

A line number in our own code is wrong after the next edit above it, and nothing tells the page.
Name the function or class instead (`fanout.py` `_dispatch`, `batch.py` `Fanout.flush`), and the
statement in a few words where one statement is meant. Line references into third-party sources
(Tornado's `tornado/iostream.py:126`, the standard library's `asyncio/base_events.py:436`,
sockjs-node's `.js` files) point into pinned versions and are left alone.

Whose file a reference names: ours when its path resolves to a Python file of this repository (the
files git tracks or would track, as check_links lists them), that is, when the path as written is
that file's path or a tail of it made of whole folder names (`fanout.py`, `protocol/fanout.py`,
`server-python/sockbench_server/protocol/fanout.py`). So `tornado/websocket.py` is Tornado's even
though our `tornado_io/websocket.py` exists. Three more ways a path resolves: one starting with
`./` or `../` is read from the Markdown file's folder; an absolute path is read from its first
folder named like one of the repository's top-level folders on (`/r/server-python/...`); and a
folder abbreviation that the page declares, written as "`py/` is `server-python/sockbench_server/`",
is expanded. Fenced code blocks are skipped: they hold commands and tool output as printed at the
time, not pointers a reader follows.

    python docs/linkcheck/check_line_refs.py [REPO_ROOT]

prints one line per reference (file:line: the reference, the file it points into, what to write
instead) and exits 1, or says how many Markdown files it read and exits 0.
"""

import ast
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_links import prose_lines, repository_files, run_command  # noqa: E402

# A path ending in .py, then a colon and a line number (a range's first line is enough). The path
# may be absolute; it may not continue a longer word (`my.fanout.py:3` is not `fanout.py:3`).
_LINE_REF = re.compile(r"(?<![\w.-])(/?(?:[\w.@-]+/)*[\w.-]+\.py):(\d+)")
# A page's folder abbreviation: "`py/` is `server-python/sockbench_server/`".
_ABBREVIATION = re.compile(r"`([\w.-]+/)` is `([\w./-]+/)`")


def our_file(ref_path, source, ours, top_folders, abbreviations):
    """The Python file of ours (relative to the root) that `ref_path`, written in the Markdown file
    `source`, resolves to, or None."""
    if ref_path.startswith(("./", "../")):
        ref_path = os.path.normpath(os.path.join(os.path.dirname(source), ref_path)).replace(os.sep, "/")
        return ref_path if ref_path in ours else None
    parts = ref_path.strip("/").split("/")
    if ref_path.startswith("/"):
        starts = [i for i, p in enumerate(parts) if p in top_folders]
        if not starts:
            return None
        parts = parts[starts[0]:]
    if parts[0] + "/" in abbreviations:
        parts = abbreviations[parts[0] + "/"].strip("/").split("/") + parts[1:]
    tail = "/".join(parts)
    for path in ours:
        if path == tail or path.endswith("/" + tail):
            return path
    return None


def line_refs(root, files):
    """[(file, line, reference, our file it points into)] for every line reference in `files`
    (Markdown, relative to root) into a Python file of ours."""
    ours = repository_files(root, ".py")
    top_folders = {path.split("/")[0] for path in ours if "/" in path}
    found = []
    for source in files:
        with open(os.path.join(root, source), encoding="utf-8") as f:
            text = f.read()
        abbreviations = dict(_ABBREVIATION.findall(text))
        for number, line in prose_lines(text.split("\n")):
            for m in _LINE_REF.finditer(line):
                target = our_file(m.group(1), source, ours, top_folders, abbreviations)
                if target:
                    found.append((source, number, m.group(0), target))
    return found


def symbol_at(path, line):
    """The dotted name of the innermost function or class of the Python file `path` that holds
    `line` (Fanout.flush), or None (module level, past the end, or a file that does not parse)."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return None
    names, scope = [], tree
    while True:
        inner = [n for n in ast.iter_child_nodes(scope)
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 and n.lineno <= line <= n.end_lineno]
        if not inner:
            return ".".join(names) or None
        scope = inner[0]
        names.append(scope.name)


def describe(root, source, number, ref, target):
    """The line the check prints for one reference: where, what, and what to write instead."""
    line = int(ref.rsplit(":", 1)[1])
    symbol = symbol_at(os.path.join(root, target), line)
    instead = (f"e.g. `{os.path.basename(target)}` `{symbol}`, which holds line {line} today (check that it "
               f"is the one meant)" if symbol else "the function, class or constant meant")
    return (f"{source}:{number}: `{ref}` points into {target} by line number, which goes stale with the next "
            f"edit; name the symbol instead: {instead}, and the statement in a few words if one is meant")


def report(root, files):
    """A line per reference in `files` into our Python code, and the line saying there is none."""
    return ([describe(root, *entry) for entry in line_refs(root, files)],
            f"no line reference into our Python code in {len(files)} Markdown files")


def main(argv):
    return run_command(argv, "check_line_refs.py", report)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The docs check that no Markdown page points into our own Python code by line number (which goes
stale with every edit), while line references into third-party sources stay allowed."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import check_line_refs  # noqa: E402
import check_links  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))

FANOUT = "server-python/sockbench_server/protocol/fanout.py"
# A small repository: two Python files of ours, one of them named like a Tornado module.
OURS = {
    FANOUT: "import os\n\n\nclass Fanout:\n    def flush(self):\n        return 1\n",
    "server-python/sockbench_server/tornado_io/websocket.py": "X = 1\n",
}
# (line, reference) of a page whose references are all ours: a bare name, a tail, a path from the
# root, one relative to the page, an absolute one from a profile, a range, and one through the
# page's declared abbreviation (`py/`).
FLAGGED_PAGE = """# Notes

Paths: `py/` is `server-python/sockbench_server/`.

`fanout.py:5` and `protocol/fanout.py:6`; `server-python/sockbench_server/protocol/fanout.py:1`
[see](../server-python/sockbench_server/protocol/fanout.py) and `../server-python/sockbench_server/protocol/fanout.py:4`
flush (/r/server-python/sockbench_server/protocol/fanout.py:320) and `fanout.py:4-6`
`py/tornado_io/websocket.py:1`
"""
FLAGGED = [(5, "fanout.py:5"), (5, "protocol/fanout.py:6"),
           (5, "server-python/sockbench_server/protocol/fanout.py:1"),
           (6, "../server-python/sockbench_server/protocol/fanout.py:4"),
           (7, "/r/server-python/sockbench_server/protocol/fanout.py:320"), (7, "fanout.py:4"),
           (8, "py/tornado_io/websocket.py:1")]
# References that are not ours, or not by line, or not references: none is flagged.
CLEAN_PAGE = """# Third-party and other

`tornado/websocket.py:619`, `tornado/iostream.py:126`, `iostream.py:126`, `asyncio/base_events.py:436`,
`socket.py:295`, `_weakrefset.py:88`, `/usr/lib/python3/dist-packages/tornado/websocket.py:890`,
`sockjs/transport.js:46`, `node/apps.js:118-119`, `fanout.py` `Fanout.flush`, `myfanout.py:3`,
`py/protocol/fanout.py:7` (no abbreviation declared on this page), `../fanout.py:2`

```
$ python -X importtime fanout.py:12
```
"""


def make_repo(root):
    for path, text in OURS.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as f:
            f.write(text)
    os.makedirs(os.path.join(root, "docs"))
    with open(os.path.join(root, "docs", "flagged.md"), "w", encoding="utf-8") as f:
        f.write(FLAGGED_PAGE)
    with open(os.path.join(root, "docs", "clean.md"), "w", encoding="utf-8") as f:
        f.write(CLEAN_PAGE)


def test_no_markdown_in_the_repository_points_into_our_python_by_line_number():
    files = check_links.markdown_files(REPO)
    assert "docs/flush-policy.md" in files and "server-python/README.md" in files
    found = check_line_refs.line_refs(REPO, files)
    assert found == [], "\n".join(check_line_refs.describe(REPO, *entry) for entry in found)


def test_references_into_our_python_are_found_and_third_party_ones_are_not(tmp_path):
    make_repo(str(tmp_path))
    found = check_line_refs.line_refs(str(tmp_path), [os.path.join("docs", "flagged.md"),
                                                      os.path.join("docs", "clean.md")])
    assert [(line, ref) for _, line, ref, _ in found] == FLAGGED
    assert {source for source, _, _, _ in found} == {os.path.join("docs", "flagged.md")}
    assert {target for _, _, _, target in found} == set(OURS)


def test_the_message_names_the_page_line_and_reference_and_the_symbol_that_holds_the_line(tmp_path):
    make_repo(str(tmp_path))
    message = check_line_refs.describe(str(tmp_path), "docs/flagged.md", 5, "fanout.py:5", FANOUT)
    assert message.startswith(f"docs/flagged.md:5: `fanout.py:5` points into {FANOUT} by line number")
    assert "name the symbol instead: e.g. `fanout.py` `Fanout.flush`, which holds line 5 today" in message
    module_level = check_line_refs.describe(str(tmp_path), "docs/flagged.md", 5, "fanout.py:1", FANOUT)
    assert "name the symbol instead: the function, class or constant meant" in module_level


def test_the_command_prints_each_reference_and_exits_1_then_0_once_they_are_gone(tmp_path):
    make_repo(str(tmp_path))
    command = [sys.executable, os.path.join(HERE, "check_line_refs.py"), str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 1
    assert [line.split(" ")[0] for line in result.stdout.splitlines()] == \
        [f"docs/flagged.md:{line}:" for line, _ in FLAGGED]
    os.remove(os.path.join(tmp_path, "docs", "flagged.md"))
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
    assert "no line reference into our Python code in 1 Markdown files" in result.stdout

"""CI runs one command everywhere: .ci/run is `make test`, and the GitHub workflow runs .ci/run
(not a copy of its steps), so the two cannot drift apart."""

import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def commands(script):
    return [line.strip() for line in script.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_ci_run_is_make_test_on_the_checkout():
    assert "make test" in commands(read(".ci/run"))
    assert os.access(os.path.join(ROOT, ".ci", "run"), os.X_OK)


def test_the_github_workflow_runs_ci_run_and_not_its_own_make_test():
    workflow = read(".github/workflows/ci.yml")
    runs = re.findall(r"^\s*(?:-\s*)?run:\s*(.+)$", workflow, re.M)
    assert ".ci/run" in runs
    assert not any(re.search(r"\bmake\b", run) for run in runs), runs
    assert re.search(r"^\s*image:\s*debian:12\s*$", workflow, re.M), "make installs Debian packages as root"


def test_make_help_exits_0_and_prints_every_help_line_whole():
    """`make help` is the list a newcomer reads first; a '#' inside a HELP_LINES string starts a
    make comment, cuts the line and leaves an unclosed quote that breaks the whole listing."""
    import glob
    import subprocess

    out = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for mk in glob.glob(os.path.join(ROOT, "**", "make.mk"), recursive=True):
        if "node_modules" in mk or os.sep + "." in mk[len(ROOT):]:
            continue
        text = open(mk, encoding="utf-8").read()
        for block in re.findall(r"^HELP_LINES\s*\+=((?:.*\\\n)*.*)$", text, re.M):
            for line in re.findall(r'"((?:[^"\\]|\\.)*)"', block):
                assert line in out.stdout, f"{os.path.relpath(mk, ROOT)}: help line missing or cut: {line[:60]}"

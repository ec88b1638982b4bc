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

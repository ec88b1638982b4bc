"""The runtimes group end to end: `make bench SERVERS=cpython3.13-fast PROFILE=smoke REPEAT=1` against
our server on the pyenv CPython 3.13 (skipped, with what is missing, where it is not installed), and
how the runner skips an entry whose requirement is missing instead of failing the whole run."""

import os
import select
import signal
import subprocess
import sys
import time

import pytest

from cpus import available_cpus
from run_bench import available_variants
from servers import ROOT, entry
from sockbench_contract.ready_line import parse_ready_line
from sockbench_contract.registry import parse
from sockbench_contract.server_launch import StepError
from matrix import registry
from smoke_run import smoke_run
NEWER = entry("cpython3.13-fast")


def test_smoke_run_on_cpython_3_13_names_its_runtime(tmp_path):
    missing = registry().missing(NEWER)
    if missing:
        pytest.skip(f"{NEWER.name}: missing {missing}")
    assert os.path.exists(NEWER.argv[0]), "make test-bench installs .venv-cpython3.13 (setup-python-runtimes)"
    _, out_path, doc = smoke_run(["--servers", NEWER.name], tmp_path, str(available_cpus()[0]),
                                 extra=["--no-server-warmup"])
    assert os.path.basename(out_path).endswith("-sockbench-tornado-cpython3.13-json-fast.json")
    assert doc["schema"] == "sockbench.result/6" and doc["server"]["entry"] == "cpython3.13-fast"
    assert doc["server"]["runtime"] == "cpython" and doc["server"]["runtime_version"].startswith("3.13.")
    assert doc["server"]["mode"] == "fast" and doc["server"]["peer"] is False


def test_an_entry_whose_requirement_is_missing_is_skipped_with_one_line():
    reg = parse({
        "groups": {"default": "all"},
        "requirements": {"absent": {"check": ["sh", "-c", "exit 3"], "missing": "Absent 9 (apt-get install absent)"}},
        "servers": [
            {"name": "here", "label": "h", "argv": ["x"], "install": [], "knobs": [], "mode": "naive",
             "peer": True, "groups": ["default"]},
            {"name": "gone", "label": "g", "argv": ["y"], "install": [], "knobs": [], "mode": "naive",
             "peer": True, "groups": ["default"], "requires": ["absent"]},
        ]})
    lines = []
    kept = available_variants(reg.select(""), reg, log=lines.append)
    assert [e.name for e in kept] == ["here"]
    assert lines == ["[skip] gone: missing Absent 9 (apt-get install absent)"]
    with pytest.raises(StepError, match="none of gone can run"):
        available_variants([reg.entry("gone")], reg, log=lines.append)


def test_registry_cli_lists_installs_and_launches():
    cli = [sys.executable, os.path.join(ROOT, "docs", "contract", "sockbench_contract", "registry_cli.py")]
    out = subprocess.run(cli + ["installs", "default"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and f"{ROOT}/.stamps/python-pypy" in out.stdout.split()
    out = subprocess.run(cli + ["argv", "pypy", "--naive", "--port", "0", "--json", "ujson"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert out.stdout.split() == [entry("pypy-naive").argv[0], "-m", "sockbench_server", "--host", "127.0.0.1",
                                  "--port", "0", "--heartbeat", "25", "--log-level", "warning", "--json", "ujson",
                                  "--naive"]
    out = subprocess.run(cli + ["argv", "sockjs-tornado-pypy", "--workers", "2"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and "no --workers/--broker" in out.stderr
    out = subprocess.run(cli + ["installs", "pypy-fst"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "unknown server(s) pypy-fst" in out.stderr


def test_make_serve_runs_a_registry_entry_with_its_ready_line_on_stdout():
    """`make serve SERVER=cpython3.13-naive PORT=0`: stdout carries the READY line alone, naming the
    real runtime version and the entry's mode; SIGTERM stops it."""
    serving = entry("cpython3.13-naive")
    missing = registry().missing(serving)
    if missing:
        pytest.skip(f"{serving.name}: missing {missing}")
    proc = subprocess.Popen(["make", "-s", "-C", ROOT, "serve", f"SERVER={serving.name}", "PORT=0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True, start_new_session=True)
    try:
        ready, ends = None, time.monotonic() + 120
        while ready is None and time.monotonic() < ends:
            if select.select([proc.stdout], [], [], 1.0)[0]:
                ready = proc.stdout.readline()
            elif proc.poll() is not None:
                break
        assert ready, f"no READY line; stderr:\n{proc.stderr.read()[-3000:] if proc.poll() is not None else ''}"
        url, fields = parse_ready_line(ready)
        assert not serving.ready_mismatches(fields)
        assert fields["runtime_version"].startswith("3.13.") and fields["mode"] == "naive"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=10) is not None
    assert proc.stdout.read() == "", "nothing but the READY line on stdout"

"""Each client run's agents log to files named after its result file, so the runs of one `make bench`
(several servers, several repetitions) do not overwrite each other's agent logs: the logs of a run
whose agent was lost are the ones that say why. Real agent JVMs (the client jar), given a bus that
does not answer, so each writes its one line and exits."""

import os
import socket

import pytest

from client_fleet import ClientFleet
from bench_cli import DEFAULT_JAR


def _nowhere():
    """A redis:// URL nothing listens on (a port just freed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{s.getsockname()[1]}/0"


@pytest.mark.skipif(not os.path.exists(DEFAULT_JAR), reason="client jar not built (make setup-java)")
def test_two_runs_in_one_directory_keep_their_own_agent_logs_and_the_start_line_names_them(tmp_path):
    java = [os.environ.get("JAVA", "java"), "-jar", DEFAULT_JAR]
    lines = []
    bus = _nowhere()
    for name in ("pypy-fast-1-group1", "cpython-fast-1-group1"):
        stem = str(tmp_path / name)
        with ClientFleet(agents=2, java=java, log_stem=stem, bus=bus, log=lines.append) as fleet:
            for p in fleet.procs:
                assert p.wait(timeout=60) == 1, "an agent without a bus exits 1"
            assert fleet.log_path(2) == f"{stem}-agent-2.log"
    starts = [line for line in lines if line.startswith("[start agents] 2 agents")]
    assert [line.endswith(f"logs {tmp_path}/{name}-agent-N.log")
            for line, name in zip(starts, ("pypy-fast-1-group1", "cpython-fast-1-group1"))] == [True, True], starts
    for name in ("pypy-fast-1-group1", "cpython-fast-1-group1"):
        for n in (1, 2):
            with open(tmp_path / f"{name}-agent-{n}.log", encoding="utf-8") as f:
                assert f"Redis at {bus} does not answer" in f.read()
    assert not (tmp_path / "agent-1.log").exists()

"""Fixtures of the server-agnostic conformance suite.

One server process per test run (session scope), started from
``SOCKBENCH_SERVER_CMD`` + ``--port 0``; see serverproc.py. Nothing here
knows which server it talks to beyond docs/protocol.md.
"""
from __future__ import annotations

import pytest

from serverproc import ServerProcess


class Urls:
    """The base URLs sockjs-protocol.py uses, for one server."""

    def __init__(self, top: str):
        self.top = top
        self.base_url = top + "/echo"
        self.close_base_url = top + "/close"
        self.wsoff_base_url = top + "/disabled_websocket_echo"
        self.cookie_base_url = top + "/cookie_needed_echo"
        self.broadcast_url = top + "/broadcast"


_servers = []


@pytest.fixture(scope="session")
def server():
    srv = ServerProcess()
    _servers.append(srv)
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def urls(server) -> Urls:
    return Urls(server.url)


@pytest.fixture(scope="session")
def fast_heartbeat_server():
    """A second server with a short heartbeat, for the timing tests."""
    srv = ServerProcess(["--heartbeat", "0.5"])
    _servers.append(srv)
    yield srv
    srv.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and _servers:
        for srv in _servers:
            tail = "\n".join(srv.stderr_text().splitlines()[-40:])
            state = "running" if srv.proc.poll() is None else "exited %s" % srv.proc.returncode
            report.sections.append(("server stderr (%s, %s)" % (" ".join(srv.argv), state), tail))

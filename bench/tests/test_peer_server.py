"""The sockjs-tornado peer, started by the one launcher (sockbench_contract),
serves and broadcasts and stops cleanly: the registry's entry for it works."""

import json
import os
import urllib.request

import pytest

from servers import entry, server_command
from sockbench_contract.server_launch import ServerProcess

PEER = entry("sockjs-tornado-cpython")
needs_peer = pytest.mark.skipif(not os.path.exists(PEER.argv[0]),
                                reason="peer venv missing: run `make test-bench` (it installs it)")


@needs_peer
def test_peer_starts_serves_and_stops_cleanly(tmp_path):
    argv = server_command(PEER, "127.0.0.1", 0, 25)
    with ServerProcess(argv, [], str(tmp_path / "peer.log")) as server:
        assert server.fields["server"] == "sockjs-tornado"
        assert server.fields["peer"] == "true"
        with urllib.request.urlopen(server.url + "/broadcast/info", timeout=5) as resp:
            assert resp.status == 200
            assert json.load(resp)["websocket"] is True
        pid = server.pid
        assert os.path.exists(f"/proc/{pid}")
    assert server.proc.returncode == 0


@needs_peer
def test_peer_broadcasts_over_xhr(tmp_path):
    """Two xhr sessions: what one sends, both receive (the benchmark's app, over plain HTTP)."""
    argv = server_command(PEER, "127.0.0.1", 0, 25)
    with ServerProcess(argv, [], str(tmp_path / "peer.log")) as server:
        def post(path, body=b""):
            req = urllib.request.Request(server.url + path, data=body, method="POST")
            with urllib.request.urlopen(req, timeout=5) as resp:
                return resp.read().decode()
        assert post("/broadcast/000/a/xhr") == "o\n"
        assert post("/broadcast/000/b/xhr") == "o\n"
        post("/broadcast/000/a/xhr_send", b'["hi"]')
        assert post("/broadcast/000/a/xhr") == 'a["hi"]\n'
        assert post("/broadcast/000/b/xhr") == 'a["hi"]\n'

"""server_command: a registry entry's launch with the contract flags first and only the knobs it has."""

import pytest

from sockbench_contract.registry import load, server_command


def entry(name):
    return load().entry(name)


def test_contract_flags_come_first():
    # With every server-specific knob given, the contract flags (docs/protocol.md) still come right
    # after the entry's launch, and the knobs follow them.
    spec = entry("pypy-fast")
    argv = server_command(spec, "127.0.0.1", 0, 25, codec="ujson", naive=True, workers=2,
                          broker="redis://127.0.0.1:7000/0")
    launch = len(spec.argv)
    assert argv[:launch] == list(spec.argv)
    assert argv[launch:launch + 8] == ["--host", "127.0.0.1", "--port", "0", "--heartbeat", "25",
                                       "--log-level", "warning"]
    assert argv[launch + 8:] == ["--json", "ujson", "--naive", "--workers", "2", "--broker", "redis://127.0.0.1:7000/0"]


def test_python_server_takes_codec_and_naive():
    argv = server_command(entry("pypy-fast"), "127.0.0.1", 8080, 2.5, codec="ujson", naive=True)
    assert argv[argv.index("--json") + 1] == "ujson"
    assert argv[-1] == "--naive"
    assert "2.5" in argv


def test_node_server_takes_naive_but_no_codec():
    assert server_command(entry("node-fast"), "127.0.0.1", 8080, 25, naive=True)[-1] == "--naive"
    assert "--naive" not in server_command(entry("node-fast"), "127.0.0.1", 8080, 25)
    with pytest.raises(ValueError, match="codec"):
        server_command(entry("node-fast"), "127.0.0.1", 8080, 25, codec="ujson")


@pytest.mark.parametrize("kind", ["sockjs-tornado-cpython"])
def test_knobs_a_server_lacks_are_refused(kind):
    with pytest.raises(ValueError, match="codec"):
        server_command(entry(kind), "127.0.0.1", 8080, 25, codec="ujson")
    with pytest.raises(ValueError, match="naive"):
        server_command(entry(kind), "127.0.0.1", 8080, 25, naive=True)


def test_peers_are_marked():
    default = load().group("default")
    assert {e.name for e in default if e.peer} == {"sockjs-tornado-cpython", "sockjs-tornado-pypy"}


def test_a_naive_entry_passes_naive_unless_its_server_has_one_path_only():
    assert server_command(entry("cpython-naive"), "127.0.0.1", 0, 25)[-1] == "--naive"
    assert "--naive" not in server_command(entry("cpython-fast"), "127.0.0.1", 0, 25)
    peer = entry("sockjs-tornado-pypy")
    assert peer.mode == "naive" and "--naive" not in server_command(peer, "127.0.0.1", 0, 25)

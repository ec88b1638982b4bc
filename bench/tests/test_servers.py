import pytest

from servers import SPECS, server_command


def test_contract_flags_come_first():
    argv = server_command(SPECS["node"], "127.0.0.1", 0, 25)
    assert argv[-8:] == ["--host", "127.0.0.1", "--port", "0", "--heartbeat", "25", "--log-level", "warning"]


def test_python_server_takes_codec_and_naive():
    argv = server_command(SPECS["pypy"], "127.0.0.1", 8080, 2.5, codec="ujson", naive=True)
    assert argv[argv.index("--json") + 1] == "ujson"
    assert argv[-1] == "--naive"
    assert "2.5" in argv


def test_node_server_takes_naive_but_no_codec():
    assert server_command(SPECS["node"], "127.0.0.1", 8080, 25, naive=True)[-1] == "--naive"
    assert "--naive" not in server_command(SPECS["node"], "127.0.0.1", 8080, 25)
    with pytest.raises(ValueError, match="codec"):
        server_command(SPECS["node"], "127.0.0.1", 8080, 25, codec="ujson")


@pytest.mark.parametrize("kind", ["peer-sockjs-tornado-cpython"])
def test_knobs_a_server_lacks_are_refused(kind):
    with pytest.raises(ValueError, match="codec"):
        server_command(SPECS[kind], "127.0.0.1", 8080, 25, codec="ujson")
    with pytest.raises(ValueError, match="naive"):
        server_command(SPECS[kind], "127.0.0.1", 8080, 25, naive=True)


def test_peers_are_marked():
    assert {k for k, s in SPECS.items() if s.peer} == {"peer-sockjs-tornado-cpython", "peer-sockjs-tornado-pypy"}

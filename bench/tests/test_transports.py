"""Which runs TRANSPORTS= refuses before anything starts (bench/transports.py): HTTP transports against a
server that serves only the websocket, or across several workers; and the flags it passes on."""

from matrix import registry
import transports


def _entries(*names):
    return [registry().entry(n) for n in names]


def test_websocket_sessions_are_never_refused_and_add_no_flag():
    assert transports.refusal("websocket", _entries("limit-naive"), workers=4) is None
    assert transports.client_args("websocket") == []


def test_a_websocket_only_server_refuses_http_transports_by_name():
    why = transports.refusal("websocket:1,xhr-polling:1", _entries("pypy-fast", "limit-naive", "limit-fast"), 1)
    assert why.startswith("TRANSPORTS=websocket:1,xhr-polling:1: limit-naive, limit-fast serve only the websocket")


def test_several_workers_refuse_http_transports_unless_behind_a_proxy():
    assert "run WORKERS=1, or WORKERS=2 PROXY=haproxy" in transports.refusal("eventsource", _entries("node-fast"), 2)
    assert transports.refusal("eventsource", _entries("node-fast"), workers=1) is None
    assert transports.refusal("eventsource", _entries("node-fast"), workers=2, proxy="haproxy") is None


def test_the_canonical_mix_is_passed_to_the_client():
    assert transports.client_args("websocket:16,xhr-streaming:2") == ["--transports", "websocket:16,xhr-streaming:2"]
    assert transports.has_http("websocket:16,xhr-streaming:2") and not transports.has_http("websocket")

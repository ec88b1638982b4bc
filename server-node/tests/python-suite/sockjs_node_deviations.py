"""pytest plugin: hold sockjs-node to the same conformance suite as our Python
server (docs/contract/conformance), minus the deviations that are
sockjs-node 0.3.24's own and documented in server-node/README.md.

Each deviation is an xfail(strict=True): if sockjs-node (or our app around it)
starts passing one, the run fails and the entry must go. A listed test that is
no longer collected is an error too, so the list cannot silently go stale.

Loaded by `make test-conformance-node` with `-p sockjs_node_deviations`, and
by `make test-js-runtimes` with SOCKBENCH_JS_RUNTIME naming the runtime under
test (node26, bun, deno: the registry entries' prefix), which adds that
runtime's own deviations (RUNTIME_DEVIATIONS).
"""

import os

import pytest

DEVIATIONS = {
    "test_contract.py::TestTiming::test_heartbeat_frames":
        "sockjs-node sends WebSocket pings, not SockJS 'h' frames, on websocket sessions",
    "test_contract.py::TestBadInput::test_http_send_errors_keep_the_session":
        "sockjs-node answers xhr_send of a non-string item ([1]) with 204 before the app sees it; "
        "the spec's 500 is unreachable without patching the library",
    "test_sockjs_protocol.py::WebsocketHybi10::test_headersSanity":
        "faye-websocket refuses Sec-WebSocket-Version 7 (hybi-07) with 400; it speaks 8 and 13",
    "test_sockjs_protocol.py::WebsocketHybi10::test_firefox_602_connection_header":
        "faye-websocket refuses Sec-WebSocket-Version 7 (hybi-07) with 400; it speaks 8 and 13",
}

# Node 26's http module sends what sockjs-node writes to a fresh streaming
# response in one tick - the 2 KiB prelude (or the eventsource/htmlfile
# preamble) and the "o" open frame - as one HTTP chunk; Node 20 sent two. The
# suite reads a streaming body one chunk at a time and expects one frame per
# chunk (as sockjs-protocol.py does), so every case that opens a streaming
# session fails at its "o" frame. The bytes and their order are what the
# protocol asks for: clients split frames by the transport's delimiters
# (sockjs-client by newline), which tests/runtimes.test.js checks on each
# runtime over xhr_streaming.
_NODE26_CHUNKS = ("Node 26 sends the streaming prelude and the 'o' frame as one HTTP chunk; "
                  "the suite expects one frame per chunk (tests/runtimes.test.js reads the frames)")
_NODE26_COALESCED = [
    "test_contract.py::test_stop_closes_every_http_session_and_exits_0[SIGTERM]",
    "test_contract.py::test_stop_closes_every_http_session_and_exits_0[SIGINT]",
    "test_contract.py::TestBroadcast::test_every_session_gets_every_message_sender_included",
    "test_sockjs_protocol.py::XhrStreaming::test_transport",
    "test_sockjs_protocol.py::XhrStreaming::test_response_limit",
    "test_sockjs_protocol.py::EventSource::test_transport",
    "test_sockjs_protocol.py::EventSource::test_response_limit",
    "test_sockjs_protocol.py::HtmlFile::test_transport",
    "test_sockjs_protocol.py::HtmlFile::test_response_limit",
    "test_sockjs_protocol.py::HandlingClose::test_close_frame",
    "test_sockjs_protocol.py::HandlingClose::test_close_request",
    "test_sockjs_protocol.py::HandlingClose::test_abort_xhr_streaming",
    "test_sockjs_protocol.py::Http11::test_streaming",
]

#: SOCKBENCH_JS_RUNTIME value -> {test id: reason}: what a runtime changes on top of DEVIATIONS.
RUNTIME_DEVIATIONS = {
    "node": {},
    "node26": {test: _NODE26_CHUNKS for test in _NODE26_COALESCED},
    "bun": {},
    "deno": {},
}


def deviations_for(runtime):
    """Every expected failure for the runtime named by SOCKBENCH_JS_RUNTIME (unset: the system node)."""
    if runtime not in RUNTIME_DEVIATIONS:
        raise pytest.UsageError(f"SOCKBENCH_JS_RUNTIME={runtime!r}: expected one of {', '.join(RUNTIME_DEVIATIONS)}")
    return {**DEVIATIONS, **{test: f"{runtime}: {why}" for test, why in RUNTIME_DEVIATIONS[runtime].items()}}


def pytest_collection_modifyitems(config, items):
    deviations = deviations_for(os.environ.get("SOCKBENCH_JS_RUNTIME") or "node")
    seen = set()
    for item in items:
        reason = deviations.get(item.nodeid)
        if reason:
            seen.add(item.nodeid)
            item.add_marker(pytest.mark.xfail(strict=True, reason=f"sockjs-node deviation: {reason}"))
    # Only check for stale entries on a full run (a -k or single-file run collects fewer tests).
    if not config.option.keyword and not config.option.markexpr and len(items) > 50:
        stale = sorted(set(deviations) - seen)
        if stale:
            raise pytest.UsageError(f"sockjs_node_deviations lists tests that no longer exist: {stale}")

"""docs/protocol.md section 7: ``--max-sessions N`` bounds the sessions of a
process, every transport together; a request that would create one more is
answered HTTP 503 on every transport (websockets instead of the upgrade),
creates nothing, and is logged at most once per 10 s; requests for
sessions that exist, and the other URLs, are never refused; a session that
is gone frees its place at once. Server-agnostic: started with the flag
from ``SOCKBENCH_SERVER_CMD`` like the rest of the suite."""
from __future__ import annotations

import json
import time
import uuid
from contextlib import contextmanager
from typing import Iterator, List

import pytest

from serverproc import ServerProcess
from sockjs_client import GET, POST, RawHttpConnection
from test_sockjs_protocol import new_session, ws_open, ws_url
from wsclient import ConnectionClosed, HandshakeFailed, WebSocket

LIMIT = 3
#: How long a place freed by a closed websocket may take to show (s).
FREED_WITHIN_S = 1.0


@pytest.fixture(scope="module")
def budget_server():
    srv = ServerProcess(["--max-sessions", str(LIMIT)])
    yield srv
    srv.stop()


def fill(base: str, count: int) -> List[WebSocket]:
    """``count`` framed websocket sessions on ``base``, retrying while the
    places of an earlier test's sessions are still being freed."""
    held: List[WebSocket] = []
    deadline = time.monotonic() + FREED_WITHIN_S + 2
    while len(held) < count:
        try:
            held.append(ws_open(base))
        except HandshakeFailed:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    return held


def close_all(sockets: List[WebSocket]) -> None:
    for ws in sockets:
        try:
            ws.close()
        except (OSError, ConnectionClosed):
            pass


@contextmanager
def budget_taken(srv: ServerProcess) -> Iterator[List[WebSocket]]:
    """The whole budget of ``srv`` held by websocket sessions on /echo (the
    list, which a test may take from or add to), all closed afterwards."""
    held = fill(srv.url + "/echo", LIMIT)
    try:
        yield held
    finally:
        close_all(held)


def hixie76(url: str):
    c = RawHttpConnection(url)
    try:
        return c.request("GET", url, headers={
            "Connection": "Upgrade", "Upgrade": "WebSocket", "Origin": "http://x",
            "Sec-WebSocket-Key1": "4 @1  46546xW%0l 1 5",
            "Sec-WebSocket-Key2": "12998 5 Y3 1  .P00"})
    finally:
        c.close()


def rfc6455(url: str):
    try:
        ws = WebSocket(ws_url(url))
    except HandshakeFailed as e:
        return e.response
    ws.close()
    pytest.fail("websocket %s opened beyond the session budget" % url)


#: A request that would create a new session, per transport: (name, f(base) -> response).
NEW_SESSION_REQUESTS = [
    ("xhr", lambda b: POST(new_session(b) + "/xhr")),
    ("xhr_streaming", lambda b: POST(new_session(b) + "/xhr_streaming")),
    ("eventsource", lambda b: GET(new_session(b) + "/eventsource")),
    ("htmlfile", lambda b: GET(new_session(b) + "/htmlfile?c=callback")),
    ("jsonp", lambda b: GET(new_session(b) + "/jsonp?c=callback")),
    ("websocket", lambda b: rfc6455(new_session(b) + "/websocket")),
    ("websocket-hixie76", lambda b: hixie76(new_session(b) + "/websocket")),
    ("websocket-raw", lambda b: rfc6455(b + "/websocket")),
]


def assert_refused(r) -> None:
    assert r.status == 503, (r.status, r.headers)
    assert r["Retry-After"] == "5"
    assert (r["Content-Type"] or "").startswith("text/plain")


def test_ready_line_says_the_budget(budget_server):
    assert budget_server.fields.get("max_sessions") == str(LIMIT)


@pytest.mark.parametrize("transport, new_request", NEW_SESSION_REQUESTS,
                         ids=[t for t, _ in NEW_SESSION_REQUESTS])
def test_beyond_the_budget_a_new_session_gets_503_on_every_transport(budget_server, transport,
                                                                    new_request):
    base = budget_server.url + "/echo"
    with budget_taken(budget_server) as held:
        r = new_request(base)
        assert_refused(r)
        if r.body:  # hixie-76 and websockets: the head is what matters
            assert r.body == "Session limit reached."
        # The sessions held go on as before.
        held[0].send(json.dumps(["still here"]))
        assert held[0].recv() == 'a["still here"]'


def test_a_websocket_session_counts_and_frees_its_place_once_gone(budget_server):
    with budget_taken(budget_server) as held:
        assert_refused(GET(budget_server.url + "/broadcast/websocket", headers={
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}))
        held.pop().close()
        # The freed place takes a new session of another mount and transport.
        deadline = time.monotonic() + FREED_WITHIN_S
        while True:
            try:
                ws = WebSocket(ws_url(budget_server.url + "/broadcast/websocket"))
                break
            except HandshakeFailed:
                assert time.monotonic() < deadline, "the place was not freed within 1 s"
                time.sleep(0.02)
        held.append(ws)
        assert_refused(POST(new_session(budget_server.url + "/broadcast") + "/xhr"))


def test_refusals_are_logged_at_most_once_per_10_s(budget_server):
    base = budget_server.url + "/echo"
    with budget_taken(budget_server):
        assert_refused(POST(new_session(base) + "/xhr"))
        time.sleep(0.2)
        lines_before = len(budget_server.stderr_text().splitlines())
        for _ in range(20):
            assert_refused(POST(new_session(base) + "/xhr"))
        time.sleep(0.2)
        added = len(budget_server.stderr_text().splitlines()) - lines_before
        assert added == 0, "20 refusals right after one logged added %d lines" % added
    assert budget_server.stderr_text().strip(), "refusals were never logged"


def test_existing_sessions_and_other_urls_are_never_refused():
    # A server of its own: the HTTP session made here is kept for
    # disconnect_delay after the test.
    srv = ServerProcess(["--max-sessions", "2"])
    held: List[WebSocket] = []
    try:
        base = srv.url + "/echo"
        sid_url = base + "/000/" + str(uuid.uuid4())
        assert POST(sid_url + "/xhr").body == "o\n"
        held = fill(base, 1)
        assert_refused(POST(new_session(base) + "/xhr"))
        # The HTTP session that exists is served: send to it, poll it.
        assert POST(sid_url + "/xhr_send", body='["x"]').status == 204
        assert POST(sid_url + "/xhr").body == 'a["x"]\n'
        for url in ("/info", "/iframe.html", "/", ""):
            assert GET(base + url).status == 200, url
    finally:
        close_all(held)
        srv.stop()

"""pytest plugin: the part of the shared conformance suite (docs/contract/conformance)
that applies to the limit server, which serves the websocket endpoints only
(bench/limit-server/README.md, "What it serves").

Left out (deselected, each with its reason; `pytest -rA` does not show them,
this file is the list):
- every HTTP transport and HTTP-only URL: the benchmark uses websockets only,
  and an HTTP transport in C would measure nothing the bench runs;
- hixie-76, a draft no client of the bench speaks;
- the contract cases that mix websockets with HTTP transports in one test
  (fan-out, heartbeat, session budget): tests/test_limit_server.py checks
  their websocket half (stop has its websocket half in the suite itself).

Deviations (strict xfails: when one starts passing, the run fails until its
entry goes): what the limit server does differently from the contract's text.

Loaded by `make test-limit-server` with `-p limit_conformance_scope`.
"""

import pytest

HTTP = "HTTP transports and HTTP-only URLs are not served: the limit server is websocket-only"
HIXIE76 = "hixie-76 handshakes are not spoken (RFC 6455 only); no bench client uses them"
MIXED = ("the case mixes websocket sessions with HTTP transports (xhr, xhr_streaming, xhr_send); "
         "tests/test_limit_server.py checks its websocket half")

#: Whole classes of test_sockjs_protocol.py that test HTTP transports or URLs.
HTTP_CLASSES = ("BaseUrlGreeting", "IframePage", "InfoTest", "SessionURLs", "Protocol", "XhrPolling",
                "XhrStreaming", "EventSource", "HtmlFile", "JsonPolling", "JsessionidCookie", "JSONEncoding",
                "HandlingClose", "Http10", "Http11")

P = "test_sockjs_protocol.py::"
C = "test_contract.py::"
B = "test_session_budget.py::"
OUT_OF_SCOPE = {
    **{P + cls: HTTP for cls in HTTP_CLASSES},
    P + "WebsocketHixie76::test_haproxy": HIXIE76,
    C + "test_stop_closes_every_http_session_and_exits_0": HTTP,
    C + "TestBroadcast::test_every_session_gets_every_message_sender_included": MIXED,
    C + "TestBadInput::test_http_send_errors_keep_the_session": HTTP,
    C + "TestTiming::test_heartbeat_frames": MIXED,
    C + "TestTiming::test_sessions_expire_after_disconnect_delay": HTTP,
    B + "test_beyond_the_budget_a_new_session_gets_503_on_every_transport[xhr]": HTTP,
    B + "test_beyond_the_budget_a_new_session_gets_503_on_every_transport[xhr_streaming]": HTTP,
    B + "test_beyond_the_budget_a_new_session_gets_503_on_every_transport[eventsource]": HTTP,
    B + "test_beyond_the_budget_a_new_session_gets_503_on_every_transport[htmlfile]": HTTP,
    B + "test_beyond_the_budget_a_new_session_gets_503_on_every_transport[jsonp]": HTTP,
    B + "test_a_websocket_session_counts_and_frees_its_place_once_gone": MIXED,
    B + "test_refusals_are_logged_at_most_once_per_10_s": MIXED,
    B + "test_existing_sessions_and_other_urls_are_never_refused": HTTP,
}

#: Where the limit server departs from the contract's text.
DEVIATIONS = {}


def _key(nodeid, table):
    """The entry of `table` naming this test, its class or all its parameters (module by file name:
    the suite may be collected from any directory), or None."""
    module, _, rest = nodeid.partition("::")
    name = module.rsplit("/", 1)[-1] + "::" + rest
    for key in table:
        if name == key or name.startswith((key + "::", key + "[")):
            return key
    return None


def pytest_collection_modifyitems(config, items):
    kept, dropped, seen = [], [], set()
    for item in items:
        key = _key(item.nodeid, OUT_OF_SCOPE)
        if key:
            seen.add(key)
            dropped.append(item)
            continue
        key = _key(item.nodeid, DEVIATIONS)
        if key:
            seen.add(key)
            item.add_marker(pytest.mark.xfail(strict=True, reason="limit server deviation: " + DEVIATIONS[key]))
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
    # A full run must meet every entry: a renamed test would otherwise slip back in unseen.
    if not config.option.keyword and not config.option.markexpr and len(kept) + len(dropped) > 50:
        stale = sorted((set(OUT_OF_SCOPE) | set(DEVIATIONS)) - seen)
        if stale:
            raise pytest.UsageError(f"limit_conformance_scope lists tests that no longer exist: {stale}")

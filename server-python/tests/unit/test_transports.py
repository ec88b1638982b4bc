from __future__ import annotations

import json

import pytest

from sockbench_server.protocol import transports as tp
from fakes import StringHttpReceiver


def test_polling_framings():
    assert tp.XHR.wrap("o") == "o\n"
    assert not tp.XHR.streaming and tp.XHR.prelude is None
    jsonp = tp.JsonpPolling("cb")
    assert jsonp.wrap('a["x"]') == '/**/cb("a[\\"x\\"]");\r\n'
    assert not jsonp.streaming


def test_streaming_framings():
    assert tp.XHR_STREAMING.prelude == "h" * 2048 + "\n"
    assert tp.XHR_STREAMING.wrap("h") == "h\n"
    assert tp.EVENTSOURCE.prelude == "\r\n"
    assert tp.EVENTSOURCE.wrap("o") == "data: o\r\n\r\n"
    html = tp.HtmlFile("parent_cb")
    assert html.prelude.strip() == tp.HTMLFILE_HEAD.format(callback="parent_cb")
    assert len(html.prelude) > 1024
    assert "var c = parent.parent_cb;" in html.prelude
    assert html.wrap('a["x"]') == '<script>\np("a[\\"x\\"]");\n</script>\r\n'


def test_script_framings_cannot_close_the_script_element():
    frame = 'a["</script><script>alert(1)</script>"]'
    html = tp.HtmlFile("c").wrap(frame)
    assert html.count("</script>") == 1 and html.endswith("</script>\r\n")
    jsonp = tp.JsonpPolling("c").wrap(frame)
    assert "<" not in jsonp
    # ... and JavaScript still sees the same string.
    assert json.loads(jsonp[len("/**/c("):-len(");\r\n")]) == frame


@pytest.mark.parametrize("cb", ["callback", "a.b-c_d", "_jp.a1b2", "x" * 32])
def test_valid_callbacks(cb):
    assert tp.check_callback(cb) == cb


@pytest.mark.parametrize("cb,message", [
    (None, '"callback" parameter required'),
    ("", '"callback" parameter required'),
    (" ", 'invalid "callback" parameter'),
    ("*", 'invalid "callback" parameter'),
    ("abc(", 'invalid "callback" parameter'),
    ("alert(1);x", 'invalid "callback" parameter'),
    ("x" * 33, 'invalid "callback" parameter'),
])
def test_invalid_callbacks(cb, message):
    with pytest.raises(tp.CallbackError) as e:
        tp.check_callback(cb)
    assert str(e.value) == message


def test_polling_receiver_takes_one_frame():
    r = StringHttpReceiver(tp.XHR, 4096)
    assert r.send_frame("o") is False
    assert r.out == ["o\n"]
    r.close()
    r.close()
    assert r.finished and r.closed


def test_streaming_receiver_response_limit_counts_framed_bytes():
    # The suite: 4096-byte limit, 'o' then 134-byte frames; the 31st ends it.
    r = StringHttpReceiver(tp.XHR_STREAMING, 4096)
    assert r.send_frame("o") is True
    msg = 'a["' + "x" * 128 + '"]'
    results = [r.send_frame(msg) for _ in range(31)]
    assert results == [True] * 30 + [False]
    assert r.sent == 2 + 31 * (len(msg) + 1)


def test_one_big_frame_exhausts_the_limit():
    r = StringHttpReceiver(tp.EVENTSOURCE, 4096)
    assert r.send_frame("o") is True
    assert r.send_frame('a["' + "x" * 4096 + '"]') is False


def test_cors_headers():
    assert tp.cors_headers(None, None) == [("Access-Control-Allow-Origin", "*"),
                                           ("Vary", "Origin")]
    h = dict(tp.cors_headers("http://a.example", "a, b"))
    assert h["Access-Control-Allow-Origin"] == "http://a.example"
    assert h["Access-Control-Allow-Credentials"] == "true"
    assert h["Access-Control-Allow-Headers"] == "a, b"
    assert dict(tp.cors_headers("null", ""))["Access-Control-Allow-Origin"] == "null"
    assert "Access-Control-Allow-Headers" not in dict(tp.cors_headers("x", ""))


def test_cache_headers():
    h = dict(tp.options_headers(0.0, "OPTIONS, POST"))
    assert h["Cache-Control"] == "public, max-age=31536000"
    assert h["Expires"] == "Fri, 01 Jan 1971 00:00:00 GMT"
    assert h["Access-Control-Max-Age"] == "31536000"
    assert h["Access-Control-Allow-Methods"] == "OPTIONS, POST"
    assert tp.no_cache_headers() == [("Cache-Control", tp.NO_CACHE)]


def test_jsessionid():
    assert tp.jsessionid_header(None) == ("Set-Cookie", "JSESSIONID=dummy; path=/")
    assert tp.jsessionid_header("abcdef") == ("Set-Cookie", "JSESSIONID=abcdef; path=/")
    # Never reflect something that would inject cookie attributes.
    assert tp.jsessionid_header("x; Domain=evil") == ("Set-Cookie", "JSESSIONID=dummy; path=/")


def test_iframe_page_and_etag_are_stable():
    page, etag = tp.iframe_page("/sockjs.js")
    assert '<script src="/sockjs.js"></script>' in page
    assert "SockJS.bootstrap_iframe();" in page
    assert tp.iframe_page("/sockjs.js") == (page, etag)
    assert tp.iframe_page("/other.js")[1] != etag
    assert etag.startswith('"') and etag.endswith('"')

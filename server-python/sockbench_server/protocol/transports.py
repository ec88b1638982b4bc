"""Per-transport wire details of SockJS 0.3.3, without I/O.

For every HTTP transport: the prelude written when the response starts, how
one SockJS frame is wrapped on the wire, whether the response stays open
(streaming) and the response-size accounting that closes streaming responses
(``response_limit``). Also the static pages (iframe, htmlfile head), the
callback rule of the JSONP-like transports, and the header sets (CORS,
caching, JSESSIONID) the suite checks.
"""
from __future__ import annotations

import hashlib
import json
import re
from email.utils import formatdate
from typing import List, Optional, Tuple

Headers = List[Tuple[str, str]]

ONE_YEAR = 365 * 24 * 60 * 60
NO_CACHE = "no-store, no-cache, no-transform, must-revalidate, max-age=0"
DEFAULT_SOCKJS_URL = "https://cdn.jsdelivr.net/npm/sockjs-client@1/dist/sockjs.min.js"

GREETING = "Welcome to SockJS!\n"

# sockjs-node 0.3.24's iframe page (the one sockjs-client 1.x bootstraps).
IFRAME_TEMPLATE = """<!DOCTYPE html>
<html>
<head>
  <meta http-equiv="X-UA-Compatible" content="IE=edge" />
  <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
  <script src="{sockjs_url}"></script>
  <script>
    document.domain = document.domain;
    SockJS.bootstrap_iframe();
  </script>
</head>
<body>
  <h2>Don't panic!</h2>
  <p>This is a SockJS hidden iframe. It's used for cross domain magic.</p>
</body>
</html>"""

HTMLFILE_HEAD = """<!doctype html>
<html><head>
  <meta http-equiv="X-UA-Compatible" content="IE=edge" />
  <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
</head><body><h2>Don't panic!</h2>
  <script>
    document.domain = document.domain;
    var c = parent.{callback};
    c.start();
    function p(d) {{c.message(d);}};
    window.onload = function() {{c.stop();}};
  </script>"""

_INVALID_CALLBACK = re.compile(r"[^a-zA-Z0-9\-_.]")
MAX_CALLBACK_LENGTH = 32


class CallbackError(ValueError):
    """Missing or unsafe ``c`` parameter; ``str(e)`` is the error text."""


def check_callback(callback: Optional[str]) -> str:
    """The JSONP/htmlfile callback name, or :class:`CallbackError`."""
    if not callback:
        raise CallbackError('"callback" parameter required')
    if _INVALID_CALLBACK.search(callback) or len(callback) > MAX_CALLBACK_LENGTH:
        raise CallbackError('invalid "callback" parameter')
    return callback


def js_string(text: str) -> str:
    """A JavaScript string literal safe inside ``<script>``: pure ASCII, and
    ``<`` escaped so a message can never close the script element."""
    return json.dumps(text).replace("<", "\\u003c")


def iframe_page(sockjs_url: str) -> Tuple[str, str]:
    """(page, strong ETag) for ``/iframe*.html``."""
    page = IFRAME_TEMPLATE.format(sockjs_url=sockjs_url.replace('"', "%22"))
    etag = '"' + hashlib.md5(page.encode("utf-8")).hexdigest() + '"'
    return page, etag


class Framing:
    """How one HTTP transport puts SockJS frames on the wire."""

    name = ""
    streaming = False
    prelude: Optional[str] = None

    def wrap(self, frame: str) -> str:
        raise NotImplementedError


class XhrPolling(Framing):
    name = "xhr"

    def wrap(self, frame: str) -> str:
        return frame + "\n"


class XhrStreaming(XhrPolling):
    name = "xhr_streaming"
    streaming = True
    # IE needs 2 KiB before it hands a streaming response to the page.
    prelude = "h" * 2048 + "\n"


class EventSource(Framing):
    name = "eventsource"
    streaming = True
    prelude = "\r\n"

    def wrap(self, frame: str) -> str:
        return "data: " + frame + "\r\n\r\n"


class HtmlFile(Framing):
    name = "htmlfile"
    streaming = True

    def __init__(self, callback: str):
        head = HTMLFILE_HEAD.format(callback=callback)
        # Padded past 1 KiB so that browsers start rendering at once.
        self.prelude = head + " " * max(0, 1024 - len(head) + 14) + "\r\n\r\n"

    def wrap(self, frame: str) -> str:
        return "<script>\np(" + js_string(frame) + ");\n</script>\r\n"


class JsonpPolling(Framing):
    name = "jsonp"

    def __init__(self, callback: str):
        self.callback = callback

    def wrap(self, frame: str) -> str:
        # "/**/" defeats the Rosetta Flash JSONP attack.
        return "/**/" + self.callback + "(" + js_string(frame) + ");\r\n"


XHR = XhrPolling()
XHR_STREAMING = XhrStreaming()
EVENTSOURCE = EventSource()


class HttpReceiver:
    """The transport-independent half of an HTTP receiver.

    A session hands frames to ``send_frame``; the receiver wraps them for its
    transport, writes them, and answers whether it can take more: polling
    responses carry one frame, streaming ones stop once ``limit`` bytes of
    frames were sent (the prelude does not count). The I/O layer subclasses
    it and implements ``write(data)`` (write and flush) and ``finish()``.
    """

    __slots__ = ("framing", "limit", "sent", "closed")

    def __init__(self, framing: Framing, limit: int):
        self.framing = framing
        self.limit = limit
        self.sent = 0
        self.closed = False

    def send_frame(self, frame: str) -> bool:
        data = self.framing.wrap(frame)
        self.write(data)
        if not self.framing.streaming:
            return False
        self.sent += len(data)
        return self.sent < self.limit

    def close(self, code: int = 1000, reason: str = "Normal closure") -> None:
        if not self.closed:
            self.closed = True
            self.finish()

    def write(self, data: str) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        raise NotImplementedError


# -- headers ---------------------------------------------------------------

def cors_headers(origin: Optional[str], request_headers: Optional[str]) -> Headers:
    """CORS answer as sockjs-node 0.3.24 gives it: the Origin is echoed with
    credentials allowed; without an Origin, ``*`` and no credentials."""
    if origin:
        out = [("Access-Control-Allow-Origin", origin),
               ("Access-Control-Allow-Credentials", "true")]
    else:
        out = [("Access-Control-Allow-Origin", "*")]
    out.append(("Vary", "Origin"))
    if request_headers:
        out.append(("Access-Control-Allow-Headers", request_headers))
    return out


def no_cache_headers() -> Headers:
    return [("Cache-Control", NO_CACHE)]


def cache_forever_headers(now: float) -> Headers:
    return [("Cache-Control", "public, max-age=%d" % ONE_YEAR),
            ("Expires", formatdate(now + ONE_YEAR, usegmt=True))]


def options_headers(now: float, methods: str) -> Headers:
    """Extra headers of a CORS preflight answer (204)."""
    return cache_forever_headers(now) + [
        ("Access-Control-Max-Age", str(ONE_YEAR)),
        ("Access-Control-Allow-Methods", methods),
    ]


_COOKIE_VALUE = re.compile(r"^[A-Za-z0-9!#$%&'*+\-.^_`|~:]{1,200}$")


def jsessionid_header(current: Optional[str]) -> Tuple[str, str]:
    """``Set-Cookie`` for ``cookie_needed`` services: echo a sane JSESSIONID,
    else ``dummy`` (load balancers only need the cookie to exist)."""
    value = current if current and _COOKIE_VALUE.match(current) else "dummy"
    return ("Set-Cookie", "JSESSIONID=%s; path=/" % value)

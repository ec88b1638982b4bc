"""A small raw-socket HTTP client with the request helpers of sockjs-protocol's
``utils_03.py`` (GET, POST, OPTIONS, GET_async, POST_async, old_POST_async,
RawHttpConnection), in Python 3 and with the same reading semantics:

* synchronous requests load the whole body (Content-Length, chunked, or
  until close);
* asynchronous ones return after the headers, and ``read()`` returns the
  next HTTP chunk ('' at the terminating chunk), so a test sees exactly the
  pieces the server flushed.

Bodies are returned as ``str`` (UTF-8). Works on CPython and PyPy 3.9.
"""
from __future__ import annotations

import os
import re
import socket
from typing import Dict, Optional
from urllib.parse import urlsplit

TIMEOUT = float(os.environ.get("SOCKJS_TEST_TIMEOUT", "5"))


class HttpError(Exception):
    pass


class Headers:
    """Case-insensitive, repeated headers joined with ', '; missing -> None."""

    def __init__(self) -> None:
        self._d: Dict[str, str] = {}

    def add(self, name: str, value: str) -> None:
        key = name.lower()
        self._d[key] = self._d[key] + ", " + value if key in self._d else value

    def get(self, name: str, default: Optional[str] = None) -> Optional[str]:
        return self._d.get(name.lower(), default)

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._d

    def __repr__(self) -> str:
        return repr(self._d)


class Response:
    http = "1.1"
    status = 0
    reason = ""
    body = ""

    def __init__(self) -> None:
        self.headers = Headers()

    def __getitem__(self, name: str) -> Optional[str]:
        return self.headers.get(name)

    def get(self, name: str, default: Optional[str] = None) -> Optional[str]:
        return self.headers.get(name, default)

    def __repr__(self) -> str:
        return "<Response HTTP/%s %s %r %r>" % (self.http, self.status, self.headers, self.body[:200])


class RawHttpConnection:
    """One TCP connection; requests are written by hand."""

    def __init__(self, url: str, timeout: float = TIMEOUT):
        u = urlsplit(url)
        self.host = u.hostname or "127.0.0.1"
        self.port = u.port or 80
        self.timeout = timeout
        self.s = socket.create_connection((self.host, self.port), timeout=timeout)
        self.buf = bytearray()
        self.eof = False

    # -- writing -----------------------------------------------------------

    def send(self, data) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.s.sendall(data)

    def request(self, method: str, url: str, headers: Optional[Dict[str, str]] = None,
                body: Optional[str] = None, http: str = "1.1") -> Response:
        self.send_request(method, url, headers, body, http)
        return self.read_head()

    def send_request(self, method: str, url: str, headers: Optional[Dict[str, str]] = None,
                     body=None, http: str = "1.1") -> None:
        u = urlsplit(url)
        target = (u.path or "/") + ("?" + u.query if u.query else "")
        hdrs = {"Host": "%s:%d" % (u.hostname, u.port) if u.port else u.hostname}
        if method == "POST" and body is None:
            body = ""
        data = body.encode("utf-8") if isinstance(body, str) else body
        if data is not None:
            hdrs["Content-Length"] = str(len(data))
        for k, v in (headers or {}).items():
            for existing in list(hdrs):
                if existing.lower() == k.lower():
                    del hdrs[existing]
            hdrs[k] = v
        lines = ["%s %s HTTP/%s" % (method, target, http)]
        lines += ["%s: %s" % kv for kv in hdrs.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        self.send(head + (data or b""))

    # -- reading -----------------------------------------------------------

    def _fill(self) -> bool:
        if self.eof:
            return False
        try:
            data = self.s.recv(65536)
        except ConnectionResetError:
            data = b""
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def readline(self) -> bytes:
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line = bytes(self.buf[:i + 1])
                del self.buf[:i + 1]
                return line
            if not self._fill():
                raise HttpError("connection closed in the middle of a line: %r" % bytes(self.buf))

    def read_head(self) -> Response:
        line = self.readline().decode("latin-1")
        m = re.match(r"HTTP/(\S+) (\d+) ?(.*)", line)
        if not m:
            raise HttpError("bad status line %r" % line)
        r = Response()
        r.http, r.status, r.reason = m.group(1), int(m.group(2)), m.group(3).rstrip("\r\n")
        while True:
            line = self.readline().decode("latin-1")
            if line in ("\r\n", "\n"):
                return r
            k, _, v = line.partition(":")
            r.headers.add(k.strip(), v.strip())

    def read_bytes(self, size: Optional[int] = None) -> bytes:
        """``size`` bytes, or (None) whatever one receive brings."""
        if size is None:
            if not self.buf:
                self._fill()
            data = bytes(self.buf)
            self.buf.clear()
            return data
        while len(self.buf) < size:
            if not self._fill():
                raise HttpError("connection closed after %d of %d bytes" % (len(self.buf), size))
        data = bytes(self.buf[:size])
        del self.buf[:size]
        return data

    def read(self, size: Optional[int] = None) -> str:
        return self.read_bytes(size).decode("utf-8")

    def read_till_eof(self) -> str:
        while self._fill():
            pass
        data = bytes(self.buf)
        self.buf.clear()
        return data.decode("utf-8")

    def read_chunk(self) -> str:
        line = self.readline().decode("latin-1").strip()
        size = int(line.split(";")[0], 16)
        data = self.read_bytes(size + 2)
        if data[-2:] != b"\r\n":
            raise HttpError("chunk not terminated by CRLF")
        return data[:-2].decode("utf-8")

    def closed(self, timeout: float = 0.5) -> bool:
        """True once the server has closed the connection (nothing more comes)."""
        if self.buf:
            raise HttpError("unread data: %r" % bytes(self.buf[:100]))
        self.s.settimeout(timeout)
        try:
            data = self.s.recv(1)
        except ConnectionResetError:
            data = b""
        except socket.timeout:
            raise HttpError("connection still open after %.1fs" % timeout) from None
        finally:
            self.s.settimeout(self.timeout)
        if data:
            raise HttpError("connection not closed, got %r" % data)
        return True

    def close(self) -> None:
        try:
            self.s.close()
        except OSError:
            pass


def _body(c: RawHttpConnection, r: Response) -> str:
    if (r.get("Transfer-Encoding") or "").lower() == "chunked":
        chunks = []
        while True:
            chunk = c.read_chunk()
            if not chunk:
                return "".join(chunks)
            chunks.append(chunk)
    if r.get("Content-Length"):
        return c.read(int(r["Content-Length"]))
    if r.status in (101, 204, 304):
        return ""
    if "close" in [k.strip() for k in (r.get("Connection") or "").lower().split(",")] \
            or r.http == "1.0":
        return c.read_till_eof()
    raise HttpError("%s %r: no chunking, no Content-Length, no Connection: close"
                    % (r.status, r.headers))


def request(method: str, url: str, headers: Optional[Dict[str, str]] = None,
            body: Optional[str] = None, http: str = "1.1") -> Response:
    """A complete request on a fresh connection; the body is loaded."""
    c = RawHttpConnection(url)
    try:
        r = c.request(method, url, headers=headers, body=body, http=http)
        r.body = _body(c, r)
    finally:
        c.close()
    return r


def GET(url: str, **kw) -> Response:
    return request("GET", url, **kw)


def POST(url: str, **kw) -> Response:
    return request("POST", url, **kw)


def OPTIONS(url: str, **kw) -> Response:
    return request("OPTIONS", url, **kw)


class StreamingResponse(Response):
    """Returned by GET_async / POST_async: headers read, body read on demand."""

    conn: RawHttpConnection

    def read(self) -> str:
        c = self.conn
        if (self.get("Transfer-Encoding") or "").lower() == "chunked":
            return c.read_chunk()
        if self.get("Content-Length"):
            return c.read(int(self["Content-Length"]))
        return c.read()

    def close(self) -> None:
        self.conn.close()


def request_async(method: str, url: str, headers: Optional[Dict[str, str]] = None,
                  body: Optional[str] = None, http: str = "1.1") -> StreamingResponse:
    c = RawHttpConnection(url)
    head = c.request(method, url, headers=headers, body=body, http=http)
    r = StreamingResponse()
    r.__dict__.update(head.__dict__)
    r.conn = c
    return r


def GET_async(url: str, **kw) -> StreamingResponse:
    return request_async("GET", url, **kw)


def POST_async(url: str, **kw) -> StreamingResponse:
    return request_async("POST", url, **kw)


def old_POST_async(url: str, load: bool = False) -> RawHttpConnection:
    """Send a POST and leave the response unread (a hanging poll)."""
    c = RawHttpConnection(url)
    c.send_request("POST", url, body="")
    return c

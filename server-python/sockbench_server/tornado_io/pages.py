"""The SockJS URLs that serve a fixed answer, no session: the greeting, the
iframe page, /info and the 404 for anything else (docs/protocol.md §1).

Kept apart from handlers.py, whose handlers drive sessions: these only set the
headers and body the protocol module prescribes.
"""
from __future__ import annotations

import json
import secrets
import time
from typing import Optional

from tornado.web import RequestHandler

from ..protocol import transports as tp
from .handlers import SockJSHandler


class NotFoundHandler(RequestHandler):
    def compute_etag(self) -> Optional[str]:
        return None

    def prepare(self) -> None:
        self.set_status(404)
        self.set_header("Content-Type", "text/plain; charset=UTF-8")
        self.finish("404 Error: Page Not Found")


class GreetingHandler(SockJSHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/plain; charset=UTF-8")
        self.finish(tp.GREETING)


class IframeHandler(SockJSHandler):
    def get(self) -> None:
        page, etag = tp.iframe_page(self.service.options.sockjs_url)
        self.add_headers(tp.cache_forever_headers(time.time()))
        self.set_header("ETag", etag)
        inm = self.request.headers.get("If-None-Match", "")
        if inm and (inm.strip() == "*" or etag in [t.strip() for t in inm.split(",")]):
            self.set_status(304)
            self.clear_header("Content-Type")
            self.finish()
            return
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(page)


class InfoHandler(SockJSHandler):
    methods = ("GET", "OPTIONS")

    def get(self) -> None:
        opts = self.service.options
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        self.no_cache()
        self.cors()
        self.finish(json.dumps({
            "websocket": opts.websocket,
            "cookie_needed": opts.cookie_needed,
            "origins": ["*:*"],
            "entropy": secrets.randbits(32),
        }))

    def options(self) -> None:
        self.preflight("OPTIONS, GET")

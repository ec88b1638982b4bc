"""URL routing: every SockJS 0.3.3 URL of every mounted service."""
from __future__ import annotations

import logging
import re
from typing import Any, List, Sequence

from tornado.web import Application, RequestHandler

from ..protocol.service import Service
from . import handlers as h
from . import pages
from .shedding import OutputBudget
from .websocket import FramedWebSocketHandler, RawWebSocketHandler

access_log = logging.getLogger("sockbench_server.access")

SESSION = r"/([^/.]+)/([^/.]+)"

TRANSPORTS = (
    ("xhr", h.XhrPollingHandler),
    ("xhr_send", h.XhrSendHandler),
    ("xhr_streaming", h.XhrStreamingHandler),
    ("eventsource", h.EventSourceHandler),
    ("htmlfile", h.HtmlFileHandler),
    ("jsonp", h.JsonpPollingHandler),
    ("jsonp_send", h.JsonpSendHandler),
)


def routes_for(service: Service, budget: OutputBudget) -> List[Any]:
    p = re.escape(service.prefix)
    kw = {"service": service, "budget": budget}
    routes: List[Any] = [
        (p + r"/?", pages.GreetingHandler, kw),
        (p + r"/iframe[0-9a-z_.\-]*\.html", pages.IframeHandler, kw),
        (p + r"/info", pages.InfoHandler, kw),
    ]
    if service.options.websocket:
        routes.append((p + r"/websocket", RawWebSocketHandler, kw))
        routes.append((p + SESSION + r"/websocket", FramedWebSocketHandler, kw))
    for name, handler in TRANSPORTS:
        routes.append((p + SESSION + "/" + name, handler, kw))
    return routes


def log_request(handler: RequestHandler) -> None:
    # Access lines are debug output: 4xx/5xx are normal protocol answers
    # here (the suite provokes them), not server problems.
    if access_log.isEnabledFor(logging.DEBUG):
        r = handler.request
        access_log.debug("%d %s %s (%s) %.1fms", handler.get_status(), r.method, r.uri,
                         r.remote_ip, 1000.0 * r.request_time())


def make_application(services: Sequence[Service], budget: OutputBudget) -> Application:
    routes: List[Any] = []
    for service in services:
        routes.extend(routes_for(service, budget))
        budget.watch(service.fanout)  # its fast batches count before they are written
    return Application(routes, default_handler_class=pages.NotFoundHandler,
                       log_function=log_request, compress_response=False)

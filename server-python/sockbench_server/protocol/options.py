"""Per-service options and what an application may know about a connection."""
from __future__ import annotations

from typing import Dict, Optional

from .transports import DEFAULT_SOCKJS_URL

#: Broadcast modes (see ``fanout.broadcast``): ``fast`` encodes once and
#: coalesces per loop iteration, ``naive`` encodes and writes per recipient.
FAST = "fast"
NAIVE = "naive"
BROADCAST_MODES = (FAST, NAIVE)

#: Websocket compression (``--compression``, docs/compression.md): ``none``, or RFC 7692
#: ``permessage-deflate`` offered to clients that ask for it.
NO_COMPRESSION = "none"
PERMESSAGE_DEFLATE = "permessage-deflate"
COMPRESSIONS = (NO_COMPRESSION, PERMESSAGE_DEFLATE)

#: Default cap of one session's unsent output (bytes): 1 MiB, as Centrifugo.
DEFAULT_MAX_BUFFER = 1024 * 1024


class ServiceOptions:
    """Options of one SockJS service (one URL prefix)."""

    __slots__ = ("websocket", "cookie_needed", "response_limit", "heartbeat",
                 "disconnect_delay", "sockjs_url", "max_buffer", "broadcast", "websocket_only",
                 "compression")

    def __init__(self, websocket: bool = True, cookie_needed: bool = False,
                 response_limit: int = 128 * 1024, heartbeat: float = 25.0,
                 disconnect_delay: float = 5.0, sockjs_url: str = DEFAULT_SOCKJS_URL,
                 max_buffer: int = DEFAULT_MAX_BUFFER, broadcast: str = FAST,
                 websocket_only: bool = False, compression: str = NO_COMPRESSION):
        """``response_limit``: bytes of frames per streaming response (> 0);
        ``heartbeat``, ``disconnect_delay``: seconds (> 0); ``max_buffer``:
        bytes of unsent output one session may hold - its own queue plus
        what its connection's stream has not written yet - before it is
        closed as a slow consumer (> 0); ``broadcast``: :data:`FAST` or
        :data:`NAIVE`, how ``fanout.broadcast`` fans out to this service's
        sessions; ``websocket_only``: refuse the HTTP transports (several
        worker processes: the requests of one HTTP session would land on
        different workers, see ``errors.WEBSOCKET_ONLY_CLOSE``; PROXY=haproxy
        runs one-worker processes, which serve them all, behind a proxy);
        ``compression``: :data:`NO_COMPRESSION` or :data:`PERMESSAGE_DEFLATE`,
        whether a websocket upgrade that offers permessage-deflate gets it
        (every message to that session then compressed on its own,
        ``tornado_io/websocket.py``)."""
        if heartbeat <= 0 or disconnect_delay <= 0 or response_limit <= 0 or max_buffer <= 0:
            raise ValueError("heartbeat, disconnect_delay, response_limit and max_buffer "
                             "must be > 0")
        if broadcast not in BROADCAST_MODES:
            raise ValueError("broadcast mode must be one of %s" % ", ".join(BROADCAST_MODES))
        if compression not in COMPRESSIONS:
            raise ValueError("compression must be one of %s" % ", ".join(COMPRESSIONS))
        self.max_buffer = max_buffer
        self.websocket = websocket
        self.cookie_needed = cookie_needed
        self.response_limit = response_limit
        self.heartbeat = heartbeat
        self.disconnect_delay = disconnect_delay
        self.sockjs_url = sockjs_url
        self.broadcast = broadcast
        self.websocket_only = websocket_only
        self.compression = compression


class ConnectionInfo:
    """What an application may know about a connection (never its session id)."""

    __slots__ = ("remote_ip", "path", "headers", "transport")

    def __init__(self, remote_ip: Optional[str], path: str,
                 headers: Dict[str, str], transport: str):
        self.remote_ip = remote_ip
        self.path = path
        self.headers = headers
        self.transport = transport

    def __repr__(self) -> str:  # pragma: no cover
        return "<ConnectionInfo %s %s via %s>" % (self.remote_ip, self.path, self.transport)

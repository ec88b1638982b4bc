"""The five applications every sockbench server mounts (docs/protocol.md §4)."""
from __future__ import annotations

from typing import Any, Callable, List, Tuple

from ..protocol.options import ServiceOptions
from ..protocol.transports import DEFAULT_SOCKJS_URL
from .broadcast import make_broadcast
from .close import CloseConnection
from .echo import EchoConnection

Mount = Tuple[str, Callable[[Any], Any], ServiceOptions]


def default_mounts(heartbeat: float, sockjs_url: str = DEFAULT_SOCKJS_URL) -> List[Mount]:
    """(prefix, application class, options) for /broadcast, /echo, /close,
    /disabled_websocket_echo and /cookie_needed_echo; every /iframe.html loads
    sockjs-client from `sockjs_url` (--sockjs-url)."""
    common = dict(heartbeat=heartbeat, sockjs_url=sockjs_url)
    return [
        ("/broadcast", make_broadcast(), ServiceOptions(**common)),
        ("/echo", EchoConnection, ServiceOptions(response_limit=4096, **common)),
        ("/close", CloseConnection, ServiceOptions(**common)),
        ("/disabled_websocket_echo", EchoConnection, ServiceOptions(websocket=False, **common)),
        ("/cookie_needed_echo", EchoConnection, ServiceOptions(cookie_needed=True, **common)),
    ]

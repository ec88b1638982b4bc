"""The five applications every sockbench server mounts (docs/protocol.md §4)."""
from __future__ import annotations

from typing import Any, Callable, List, Tuple

from ..protocol.options import ServiceOptions
from .broadcast import make_broadcast
from .close import CloseConnection
from .echo import EchoConnection

Mount = Tuple[str, Callable[[Any], Any], ServiceOptions]


def default_mounts(heartbeat: float) -> List[Mount]:
    """(prefix, application class, options) for /broadcast, /echo, /close,
    /disabled_websocket_echo and /cookie_needed_echo."""
    return [
        ("/broadcast", make_broadcast(), ServiceOptions(heartbeat=heartbeat)),
        ("/echo", EchoConnection, ServiceOptions(heartbeat=heartbeat, response_limit=4096)),
        ("/close", CloseConnection, ServiceOptions(heartbeat=heartbeat)),
        ("/disabled_websocket_echo", EchoConnection,
         ServiceOptions(heartbeat=heartbeat, websocket=False)),
        ("/cookie_needed_echo", EchoConnection,
         ServiceOptions(heartbeat=heartbeat, cookie_needed=True)),
    ]

"""Accepting connections without spinning when file descriptors run out.

Trap in stock Tornado (``netutil.add_accept_handler``): when ``accept()``
fails with EMFILE/ENFILE the pending connection stays in the listen queue,
so the listening socket stays readable, the handler runs again at once and
fails again: a busy loop that logs a traceback per try (hundreds of
thousands in a minute) while every other connection starves.

Here the listening socket is taken off the loop for a short pause instead
(50 ms, doubling up to 1 s while it keeps failing, back to 50 ms after a
successful accept), and the condition is logged at most once per
:data:`LOG_INTERVAL` seconds with how many pauses happened meanwhile. When
clients leave and descriptors free up, the next try accepts as usual.
"""
from __future__ import annotations

import errno
import logging
import socket
import time
from typing import Any, Awaitable, Callable, Iterable, Optional

from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.iostream import IOStream

from .shedding import READ_CHUNK, OutputBudget
from .tornado_private import account_stream, add_listener, connection_handler

log = logging.getLogger("sockbench_server.accept")

#: errno values that mean "no resources for one more connection right now".
EXHAUSTED = frozenset(e for e in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM))
#: First pause (seconds) after accept() failed for lack of descriptors.
FIRST_PAUSE = 0.05
#: Longest pause (seconds) while it keeps failing.
MAX_PAUSE = 1.0
#: At most one log line per this many seconds (seconds).
LOG_INTERVAL = 10.0
#: Connections accepted per readiness event before yielding to other work
#: (Tornado's default backlog, as its own handler does).
ACCEPTS_PER_EVENT = 128


class AcceptLoop:
    """Accepts on one listening socket; ``remove()`` stops it for good."""

    def __init__(self, sock: socket.socket, callback: Callable[[socket.socket, Any], None]):
        self.sock = sock
        self.callback = callback
        self.loop = IOLoop.current()
        self.removed = False
        self.paused = False
        self.pause = FIRST_PAUSE
        self.pause_handle: Any = None
        self.last_log = -LOG_INTERVAL * 2
        self.pauses_since_log = 0
        self.loop.add_handler(sock, self._ready, IOLoop.READ)

    def _ready(self, fd: Any, events: int) -> None:
        for _ in range(ACCEPTS_PER_EVENT):
            if self.removed or self.paused:
                return
            try:
                connection, address = self.sock.accept()
            except BlockingIOError:
                return
            except ConnectionAbortedError:
                continue  # the client gave up while queued
            except OSError as e:
                if e.errno in EXHAUSTED:
                    self._pause_accepting(e)
                    return
                raise
            self.pause = FIRST_PAUSE
            self.callback(connection, address)

    def _pause_accepting(self, error: OSError) -> None:
        self.paused = True
        self.loop.remove_handler(self.sock)
        self.pauses_since_log += 1
        now = time.monotonic()
        if now - self.last_log >= LOG_INTERVAL:
            log.warning("cannot accept connections: %s; pausing accept for %.2fs "
                        "(%d pause(s) since the last such line; raise 'ulimit -n')",
                        error.strerror or error, self.pause, self.pauses_since_log)
            self.last_log = now
            self.pauses_since_log = 0
        self.pause_handle = self.loop.call_later(self.pause, self._resume)
        self.pause = min(self.pause * 2, MAX_PAUSE)

    def _resume(self) -> None:
        self.pause_handle = None
        if self.removed:
            return
        self.paused = False
        self.loop.add_handler(self.sock, self._ready, IOLoop.READ)
        # Pending connections wait in the listen queue; try at once rather
        # than waiting for a new readiness event.
        self._ready(self.sock, IOLoop.READ)

    def remove(self) -> None:
        if self.removed:
            return
        self.removed = True
        if self.pause_handle is not None:
            self.loop.remove_timeout(self.pause_handle)
            self.pause_handle = None
        if not self.paused:
            self.loop.remove_handler(self.sock)


class GuardedHTTPServer(HTTPServer):
    """Tornado's HTTPServer with :class:`AcceptLoop` in place of
    ``netutil.add_accept_handler`` (registered so that ``stop()`` keeps
    working; the server tests cover it), and every client stream counted
    against the process's :class:`~.shedding.OutputBudget`."""

    budget: OutputBudget

    def initialize(self, *args: Any, budget: OutputBudget, **kwargs: Any) -> None:  # type: ignore[override]
        self.budget = budget
        super().initialize(*args, **kwargs)

    def add_sockets(self, sockets: Iterable[socket.socket]) -> None:
        handle = connection_handler(self)
        for sock in sockets:
            add_listener(self, sock, AcceptLoop(sock, handle).remove)

    def handle_stream(self, stream: IOStream, address: Any) -> Optional[Awaitable[None]]:
        stream.read_chunk_size = READ_CHUNK  # bounds the input a paused client holds
        self.budget.track(account_stream(stream, self.budget))
        return super().handle_stream(stream, address)

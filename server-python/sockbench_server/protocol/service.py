"""One mounted SockJS application: its options, codec, application class,
fan-out batch and the registry of its sessions."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Set, Union

from . import frames
from .codecs import Codec
from .errors import SessionLimitReached
from .batch import Fanout
from .options import NAIVE, ConnectionInfo, ServiceOptions
from .raw_session import RawSession
from .receiver import Timers
from .session import Session
from .session_budget import SessionBudget


class Service:
    """One SockJS application mounted at a prefix."""

    def __init__(self, prefix: str, connection_class: Callable[[Any], Any],
                 options: ServiceOptions, codec: Codec, timers: Timers,
                 session_budget: Optional[SessionBudget] = None):
        """``session_budget``: shared by every service of the process
        (None: this service alone, without a limit)."""
        self.prefix = prefix
        self.session_budget = session_budget if session_budget is not None else SessionBudget()
        self.connection_class = connection_class
        self.options = options
        self.codec = codec
        self.timers = timers
        #: HTTP-transport sessions by session id.
        self.sessions: Dict[str, Session] = {}
        #: Every session that is not closed yet, websocket ones included.
        self.live: Set[Union[Session, RawSession]] = set()
        #: Coalesces the broadcasts of one loop iteration (fast mode) and
        #: holds the relay hooks (``--broker``).
        self.fanout = Fanout(self, timers)
        self.close_2010 = frames.close_frame(codec, 2010, "Another connection still open")

    @property
    def naive(self) -> bool:
        """Whether ``fanout.broadcast`` writes per recipient (``--naive``)."""
        return self.options.broadcast == NAIVE

    def lookup(self, session_id: str) -> Optional[Session]:
        return self.sessions.get(session_id)

    def has_room(self) -> bool:
        """Whether a new session may be created now (the session budget);
        a request that would create one asks first, and is answered 503
        when not."""
        return self.session_budget.has_room()

    def create(self, session_id: Optional[str], info: ConnectionInfo) -> Session:
        """A new session; with an id it is registered for the HTTP transports,
        without one (websocket) it lives exactly as long as its connection.
        Raises SessionLimitReached when the session budget is full."""
        if not self.session_budget.take():
            raise SessionLimitReached()
        session = Session(self, session_id, info)
        if session_id is not None:
            self.sessions[session_id] = session
        self.live.add(session)
        return session

    def create_raw(self, info: ConnectionInfo) -> RawSession:
        if not self.session_budget.take():
            raise SessionLimitReached()
        session = RawSession(self, info)
        self.live.add(session)
        return session

    def shutdown(self) -> None:
        """Close every session (SIGTERM): ``c[3000,"Go away!"]``, raw 1001."""
        for session in list(self.live):
            session.shutdown()

    def forget(self, session: Union[Session, RawSession]) -> None:
        """A session ended: drop it from the registries."""
        if session in self.live:
            self.live.remove(session)
            self.session_budget.give_back()
        sid = session.id
        if sid is not None and self.sessions.get(sid) is session:
            del self.sessions[sid]

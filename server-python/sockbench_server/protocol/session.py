"""A framed SockJS session without I/O (every transport but raw websockets).

A :class:`Session` is the protocol state of one SockJS connection: its state
(connecting, open, closing, closed), its outgoing queue of encoded messages,
the one *receiver* currently attached (an HTTP response or a websocket that
can carry frames to the client, see ``receiver.py``), and its single timer,
which is either the heartbeat timer (a receiver is attached) or the
disconnect timer (none is; ``timing.py`` decides what a firing timer does).

The behaviour follows sockjs-node 0.3.24 where the suite leaves room: an
aborted receiving connection ends its session at once, a second receiver
gets ``c[2010,"Another connection still open"]``, and a closed session keeps
answering with its close frame until ``disconnect_delay`` has passed.

The session knows its service only through the attributes it reads
(``options``, ``codec``, ``timers``, ``fanout``, ``close_2010``, ``forget``);
``service.py`` creates sessions and imports this module, never the reverse.
"""
from __future__ import annotations

import logging
from typing import Any, Dict, Iterable, List, Optional, Tuple, cast

from . import frames
from .errors import SLOW_CONSUMER_CLOSE, ReceiverGone, SlowConsumer
from .batch import NO_SLICE
from .options import ConnectionInfo
from .ratelog import slow_consumers
from .receiver import Receiver, WireReceiver
from .states import CLOSED, CLOSING, CONNECTING, OPEN, STATE_NAMES
from .timing import EXPIRE, SEND_HEARTBEAT, timer_decision

log = logging.getLogger("sockbench_server.session")


def call_app(session: Any, method: str, *args: Any) -> None:
    """Call an application callback; an exception is logged, not raised."""
    try:
        getattr(session.conn, method)(*args)
    except Exception:
        log.exception("application error in %s.%s", type(session.conn).__name__, method)


class Session:
    """A framed SockJS session (all transports except raw websocket)."""

    #: Messages travel JSON-encoded inside a[...] frames.
    framed = True
    __slots__ = ("service", "id", "state", "conn", "receiver", "queue", "close_frame",
                 "info", "last_output", "detached_at", "_timer", "_notified",
                 "batch_from", "batch_to", "queue_bytes", "queue_counted", "__weakref__")

    def __init__(self, service: Any, session_id: Optional[str], info: ConnectionInfo):
        self.service = service
        self.id = session_id
        self.state = CONNECTING
        self.receiver: Optional[Receiver] = None
        #: Encoded JSON string literals waiting for a receiver.
        self.queue: List[str] = []
        self.close_frame: Optional[str] = None
        self.info = info
        now = service.timers.time()
        self.last_output = now
        self.detached_at = now
        self._timer: Any = None
        self._notified = False
        #: This session's slice of the current fan-out batch (batch.py).
        self.batch_from = 0
        self.batch_to = NO_SLICE
        #: Bytes of ``queue[:queue_counted]``, for the ``max_buffer`` cap.
        self.queue_bytes = 0
        self.queue_counted = 0
        self.conn = service.connection_class(self)
        self._arm()

    # -- application side --------------------------------------------------

    def send(self, message: str, now: Optional[float] = None) -> bool:
        """Queue one message (a str) and flush it if a receiver is attached.
        False if the session is not open (or turned out to be gone).

        ``now``: the clock, read by a caller that sends to many sessions
        (the naive broadcast, ``fanout._send_each``) once for all of them,
        which then counts as this write's time (``last_output``). It is at
        most that broadcast's duration early, so a heartbeat can only come
        that much sooner, never later; the clock read it saves is a Python
        call per copy on CPython. None: read it after the write."""
        if self.state != OPEN:
            return False
        if self.batch_to != NO_SLICE:  # older broadcasts of this iteration go first
            self.service.fanout.detach(self)
        fragment = self.service.codec.encode_str(message)
        r = self.receiver
        if r is None or self.queue:
            self.queue.append(fragment)
            self.flush()
            return self.state == OPEN  # False if the write found it gone
        # The naive broadcast's hot path: nothing older is waiting, so the
        # frame goes out without a trip through the queue, and _write's work
        # is done here rather than in another call per copy. (An f-string:
        # one new string, where "a[" + fragment + "]" makes two.)
        try:
            keep = r.send_frame(f"a[{fragment}]")
        except Exception as e:
            self.write_failed(r, e)
            return self.state == OPEN
        self.last_output = self.service.timers.time() if now is None else now
        if not keep:
            self._receiver_full(r)
        return self.state == OPEN

    def send_encoded(self, fragment: str) -> bool:
        """Like :meth:`send` for a message already encoded as a JSON string
        literal (``'"hi"'``), so a broadcast can encode once for everyone."""
        if self.state != OPEN:
            return False
        if self.batch_to != NO_SLICE:
            self.service.fanout.detach(self)
        self.queue.append(fragment)
        self.flush()
        return self.state == OPEN

    def enqueue_encoded(self, fragment: str) -> bool:
        """Queue an encoded message without flushing; call :meth:`flush`
        later to put everything queued into one ``a[...]`` frame."""
        if self.state != OPEN:
            return False
        if self.batch_to != NO_SLICE:
            self.service.fanout.detach(self)
        self.queue.append(fragment)
        return True

    def flush(self) -> None:
        """Write the queued messages as one ``a[...]`` frame if a receiver
        is attached; otherwise hold them, up to ``max_buffer`` bytes."""
        queue = self.queue
        if not queue:
            return
        if self.receiver is not None:
            self.queue = []
            self.queue_bytes = self.queue_counted = 0
            self._write(frames.message_frame(queue))
            return
        # Count only what was added since the last check: a session nobody
        # polls may gather many messages before it expires.
        n = len(queue)
        if n > self.queue_counted:
            self.queue_bytes += sum(map(len, queue[self.queue_counted:]))
            self.queue_counted = n
            if self.queue_bytes > self.service.options.max_buffer:
                self._slow_consumer(self.queue_bytes)

    def write_shared(self, frame: str, wire_cache: Dict[Any, bytes]) -> None:
        """Write ``frame``, which other sessions send too. A receiver with a
        ``wire_format`` (websockets) gets the bytes built once per format and
        kept in ``wire_cache``; others get the frame string."""
        r = self.receiver
        fmt = getattr(r, "wire_format", None)
        if fmt is None:
            self._write(frame)
            return
        wr = cast(WireReceiver, r)  # it has a wire_format
        wire = wire_cache.get(fmt)
        if wire is None:
            wire = wire_cache[fmt] = wr.encode_wire(frame)
        self._write(frame, wire)

    def close(self, code: int = 3000, reason: str = "Go away!",
              connection_close: Optional[Tuple[int, str]] = None) -> bool:
        """Close the session with ``c[code,"reason"]``; ``on_close`` runs now,
        later requests get the same close frame until the session expires.
        ``connection_close``: the (code, reason) a websocket carrying the
        session closes with (default: its receiver's own, 1000)."""
        if self.state >= CLOSING:
            return False
        if self.batch_to != NO_SLICE:
            # Broadcasts of this iteration still waiting in the batch were
            # sent before the close: they go first, as in naive mode. (A
            # group run this session is in ends too: it counted it open.)
            self.service.fanout.detach(self)
            if self.receiver is not None:
                self.flush()
                if self.state >= CLOSING:  # the flush found the client gone
                    return False
        self.state = CLOSING
        self.queue = []
        self.queue_bytes = self.queue_counted = 0
        self.close_frame = frames.close_frame(self.service.codec, code, reason)
        r = self.receiver
        if r is not None:
            self.receiver = None
            self.detached_at = self.service.timers.time()
            try:
                r.send_frame(self.close_frame)
            except (ReceiverGone, SlowConsumer):
                pass
            except Exception:
                log.exception("writing close frame failed")
            if connection_close is None:
                r.close()
            else:
                r.close(*connection_close)
        if self.id is None:
            self._end()
        else:
            self._arm()
            self._notify_closed()
        return True

    def shutdown(self) -> None:
        self.close(3000, "Go away!")

    @property
    def is_open(self) -> bool:
        return self.state == OPEN

    # -- transport side ----------------------------------------------------

    def attach(self, receiver: Receiver) -> None:
        """A request (or websocket) that can carry frames to the client."""
        if self.receiver is not None:
            receiver.send_frame(self.service.close_2010)
            receiver.close()
            return
        if self.state >= CLOSING:
            keep = True
            if self.queue:
                fragments, self.queue = self.queue, []
                keep = receiver.send_frame(frames.message_frame(fragments))
            if keep:
                receiver.send_frame(self.close_frame or "")
            receiver.close()
            self.detached_at = self.service.timers.time()
            self._arm()
            return
        self._cancel_timer()
        self.receiver = receiver
        if self.state == CONNECTING:
            self.state = OPEN
            self._write(frames.OPEN)
            call_app(self, "on_open", self.info)
        else:
            self.flush()
        if self.receiver is receiver:
            self._arm()

    def receiver_gone(self, receiver: Receiver) -> None:
        """The connection of ``receiver`` went away without being asked to
        (client abort, network error, websocket closed by the peer). As in
        sockjs-node this ends the session at once."""
        if receiver is not self.receiver:
            return
        self.receiver = None
        self._end()

    def receive(self, messages: Iterable[str]) -> None:
        """Messages from the client, already decoded."""
        if self.state != OPEN:
            return
        on_message = self.conn.on_message
        for message in messages:
            try:
                on_message(message)
            except Exception:
                log.exception("application error in %s.on_message", type(self.conn).__name__)
            if self.state != OPEN:
                break

    def receive_ws_text(self, text: str) -> None:
        """One text message from a framed websocket; bad input closes it."""
        if self.state != OPEN:
            return
        try:
            messages = frames.decode_ws_messages(self.service.codec, text)
        except frames.BadPayload as e:
            log.warning("%s: closing websocket session: %s (%d bytes)",
                        self.service.prefix, e, len(text))
            r = self.receiver
            if r is not None:
                self.receiver = None
                r.close(3000, "Broken framing.")
            self._end()
            return
        if messages:
            self.receive(messages)

    # -- internals ---------------------------------------------------------

    def _slow_consumer(self, buffered: int) -> None:
        limit = self.service.options.max_buffer
        slow_consumers.warning("%s: closing session: client not reading (%d bytes unsent, "
                               "limit %d)", self.service.prefix, buffered, limit)
        self.close(*SLOW_CONSUMER_CLOSE, connection_close=SLOW_CONSUMER_CLOSE)

    def _write(self, frame: str, wire: Optional[bytes] = None) -> None:
        """Write one frame (``wire``: its bytes, pre-built for this
        receiver's wire format) and handle what the receiver answers."""
        r = self.receiver
        assert r is not None
        try:
            # ``wire`` is only ever built for a receiver with a wire_format.
            keep = (r.send_frame(frame) if wire is None
                    else cast(WireReceiver, r).write_prebuilt(wire))
        except Exception as e:
            self.write_failed(r, e)
            return
        self.last_output = self.service.timers.time()
        if not keep:
            self._receiver_full(r)

    def _receiver_full(self, r: Receiver) -> None:
        """``r`` took a frame and no more (a polling response, a streaming
        one past its limit): let it go and wait for the next request. The
        clock is read here, not taken from a broadcast's ``now``: how long
        the session may wait for it (``disconnect_delay``) starts now."""
        if self.receiver is not r:  # the write ran code that detached it already
            return
        self.receiver = None
        self.detached_at = self.service.timers.time()
        r.close()
        if self.id is None:
            self._end()
        else:
            self._arm()

    def write_failed(self, r: Receiver, e: Exception) -> None:
        """A write to ``r`` raised ``e``: a slow consumer is closed, a
        vanished connection ends the session, anything else is logged too."""
        if isinstance(e, SlowConsumer):
            self.last_output = self.service.timers.time()
            self._slow_consumer(e.buffered)
        elif isinstance(e, ReceiverGone):
            self.receiver_gone(r)
        else:
            log.error("writing to %s failed", type(r).__name__, exc_info=e)
            self.receiver_gone(r)

    def _on_timer(self) -> None:
        self._timer = None
        if self.state == CLOSED:
            return
        opts = self.service.options
        action, when = timer_decision(now=self.service.timers.time(),
                                      attached=self.receiver is not None,
                                      last_output=self.last_output, heartbeat=opts.heartbeat,
                                      detached_at=self.detached_at,
                                      disconnect_delay=opts.disconnect_delay)
        if action == SEND_HEARTBEAT:
            self._write(frames.HEARTBEAT)
            if self.receiver is not None:
                self._arm()
        elif action == EXPIRE:
            self._end()
        else:
            assert when is not None
            self._timer = self.service.timers.call_at(when, self._on_timer)

    def _arm(self) -> None:
        """(Re)start the one timer for the current situation."""
        self._cancel_timer()
        if self.state == CLOSED:
            return
        opts = self.service.options
        if self.receiver is not None:
            when = self.last_output + opts.heartbeat
        else:
            when = self.detached_at + opts.disconnect_delay
        self._timer = self.service.timers.call_at(when, self._on_timer)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self.service.timers.cancel(self._timer)
            self._timer = None

    def _end(self) -> None:
        """The session is gone: forget it and tell the application."""
        if self.state == CLOSED:
            return
        if self.batch_to != NO_SLICE:  # a group run it is in counted it open
            self.service.fanout.detach(self)
        self.state = CLOSED
        self._cancel_timer()
        self.queue = []
        self.service.forget(self)
        self._notify_closed()

    def _notify_closed(self) -> None:
        if not self._notified:
            self._notified = True
            call_app(self, "on_close")

    def __repr__(self) -> str:  # pragma: no cover
        return "<Session %s %s>" % (self.id, STATE_NAMES[self.state])

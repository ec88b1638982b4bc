"""What a receiver raises instead of returning, and the close it leads to
(a leaf module: receivers in the I/O layer and the sessions both use it)."""


class ReceiverGone(Exception):
    """Raised by a receiver whose connection is already closed; the session
    then treats it like ``receiver_gone`` (no error logged)."""


class SlowConsumer(Exception):
    """Raised by a receiver *after* a write that left more than the
    session's ``max_buffer`` bytes unsent (the client is not reading). The
    session then closes itself (:data:`SLOW_CONSUMER_CLOSE`) and logs."""

    def __init__(self, buffered: int):
        super().__init__(buffered)
        #: Bytes unsent after the write (>= 0).
        self.buffered = buffered


#: Close code and reason for a session closed because its client stopped
#: reading (1008 = "policy violation" in RFC 6455; framed sessions get it in
#: ``c[...]``, raw websockets in the close frame).
SLOW_CONSUMER_CLOSE = (1008, "Client not reading")

#: Close code and reason every HTTP transport answers with several worker
#: processes (``--workers`` > 1, docs/protocol.md section 6): the requests of
#: one polling or streaming session would land on different workers, each
#: knowing only its own sessions. The same frame as server-node's. The wire
#: text stays as it is (both servers and their tests hold it); every transport
#: on several processes is one-worker processes behind a session-routing proxy,
#: ``make serve-* WORKERS=N PROXY=haproxy`` (docs/scaling-out.md).
WEBSOCKET_ONLY_CLOSE = (3010, "Only websocket transports: this server runs several worker processes")


class SessionLimitReached(Exception):
    """Raised by ``Service.create`` when the process holds as many sessions
    as its budget allows (``session_budget.SessionBudget``); the I/O layer
    answers HTTP 503 (docs/protocol.md section 7)."""


#: The answer to a request that would create a session beyond the budget.
SESSION_LIMIT_STATUS = 503
SESSION_LIMIT_BODY = "Session limit reached."
#: Seconds a refused client is told to wait (``Retry-After``): one
#: ``disconnect_delay``, by when expired sessions have made room.
SESSION_LIMIT_RETRY_AFTER = 5

"""The four states of a session, shared by the session classes and the
fan-out (a leaf module: it imports nothing)."""

CONNECTING, OPEN, CLOSING, CLOSED = 0, 1, 2, 3
STATE_NAMES = ("connecting", "open", "closing", "closed")

"""The one decision a session's timer makes, as a pure function."""
from __future__ import annotations

from typing import Optional, Tuple

WAIT = "wait"
SEND_HEARTBEAT = "heartbeat"
EXPIRE = "expire"


def timer_decision(now: float, attached: bool, last_output: float, heartbeat: float,
                   detached_at: float, disconnect_delay: float) -> Tuple[str, Optional[float]]:
    """What a session's timer should do at ``now`` (all times in seconds).

    With a receiver attached the timer is the heartbeat: an ``h`` frame is
    due ``heartbeat`` seconds after the last output. Without one it is the
    disconnect timer: the session expires ``disconnect_delay`` seconds after
    its last receiver left. Returns ``(action, next_deadline)``; the deadline
    is set only for :data:`WAIT`.
    """
    if attached:
        due = last_output + heartbeat
        return (SEND_HEARTBEAT, None) if now >= due else (WAIT, due)
    due = detached_at + disconnect_delay
    return (EXPIRE, None) if now >= due else (WAIT, due)

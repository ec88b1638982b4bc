"""Input generators shared by the fuzz tests of the core (tests/unit) and of
the running server (tests/server)."""
from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st


def random_edits(draw: Callable, data: bytes, max_edits: int, max_insert: int) -> bytes:
    """``data`` with up to ``max_edits`` random edits: flip, drop, insert (1 to
    ``max_insert`` bytes) or cut the rest. ``draw`` is the caller's
    ``st.composite`` draw, so the cases stay seeded with the caller's."""
    out = bytearray(data)
    for _ in range(draw(st.integers(0, max_edits))):
        op = draw(st.sampled_from(["flip", "drop", "insert", "cut"]))
        at = draw(st.integers(0, len(out)))
        if op == "flip" and at < len(out):
            out[at] ^= draw(st.integers(1, 255))
        elif op == "drop" and at < len(out):
            del out[at]
        elif op == "insert":
            out[at:at] = draw(st.binary(min_size=1, max_size=max_insert))
        elif op == "cut":
            del out[at:]
    return bytes(out)

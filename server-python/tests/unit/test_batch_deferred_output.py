"""What a fast batch tells the output budget before it is written
(protocol/batch.py, ``Fanout.budget``): a group run's frame is shared, so
its bytes count once plus what each member's stream would copy of it (up to
``copy_limit``); a per-session broadcast counts a copy per taker; a flush
takes back everything it wrote, and what is broadcast during a flush is
counted for the next one."""
from __future__ import annotations

from sockbench_server import Group, broadcast
from sockbench_server.protocol.options import FAST, NAIVE
from fakes import info, make_service, messages_of, open_sessions
from test_group_fanout import GoneAfterOpen, WireReceiver, room_app


class Ledger:
    """A DeferredOutput that keeps the running totals it was told."""

    def __init__(self):
        self.memory = 0
        self.batched = 0
        self.reports = 0

    def defer(self, memory, batched):
        self.memory += memory
        self.batched += batched
        self.reports += 1


def counted_room(n, copy_limit, mode=FAST):
    group = Group()
    svc, timers = make_service(room_app(group), broadcast=mode)
    sessions = open_sessions(svc, n)
    ledger = Ledger()
    svc.fanout.budget = ledger
    svc.fanout.copy_limit = copy_limit
    return group, timers, ledger, sessions


def test_a_group_runs_frame_counts_once_plus_each_members_copy_up_to_the_limit():
    group, timers, ledger, _ = counted_room(n=100, copy_limit=10)
    broadcast(group, "abc")  # '"abc"' and its comma: 6 bytes
    assert (ledger.memory, ledger.batched) == (6 + 100 * 6, 6)
    broadcast(group, "abc")  # the copies reach the limit of 10: 4 more each
    assert (ledger.memory, ledger.batched) == (12 + 100 * 10, 12)
    for _ in range(98):  # past the limit a message is its own bytes, once
        broadcast(group, "abc")
    assert (ledger.memory, ledger.batched) == (600 + 100 * 10, 600)


def test_without_a_copy_limit_every_member_counts_a_whole_copy():
    group, _, ledger, _ = counted_room(n=50, copy_limit=None)
    for _ in range(4):
        broadcast(group, "abc")
    assert (ledger.memory, ledger.batched) == (4 * (6 + 50 * 6), 24)


def test_a_broadcast_to_a_plain_set_counts_a_copy_per_taker():
    group, _, ledger, _ = counted_room(n=20, copy_limit=10)
    members = set(group)
    broadcast(members, "abc")
    broadcast(members, "abc")
    assert (ledger.memory, ledger.batched) == (2 * 20 * 6, 12)


def test_the_flush_takes_back_what_the_batch_reported():
    group, timers, ledger, sessions = counted_room(n=30, copy_limit=10)
    for m in ("a", "b", "c"):
        broadcast(group, m)
    assert ledger.memory > 0
    timers.end_iteration()
    assert (ledger.memory, ledger.batched) == (0, 0)
    assert all(messages_of(r.frames) == ["a", "b", "c"] for _, r in sessions)


def test_naive_mode_defers_nothing():
    group, timers, ledger, sessions = counted_room(n=10, copy_limit=10, mode=NAIVE)
    broadcast(group, "abc")
    assert ledger.reports == 0
    assert all(messages_of(r.frames) == ["abc"] for _, r in sessions)


def test_what_on_close_broadcasts_during_a_flush_is_counted_for_the_next_flush():
    group = Group()

    class Chat(room_app(group)):
        def on_close(self):
            super().on_close()
            broadcast(group, "bye")

    svc, timers = make_service(Chat, broadcast=FAST)
    ledger = Ledger()
    svc.fanout.budget, svc.fanout.copy_limit = ledger, 10
    receivers = [WireReceiver(), GoneAfterOpen(), WireReceiver()]
    for i, r in enumerate(receivers):
        svc.create("s%d" % i, info()).attach(r)
    broadcast(group, "1")
    timers.end_iteration()  # the flush finds s1 gone; its on_close broadcasts, flushed next
    assert (ledger.memory, ledger.batched) == (0, 0)
    assert messages_of(receivers[0].frames) == messages_of(receivers[2].frames) == ["1", "bye"]

"""The output budget's admission of client messages (tornado_io/shedding.py)
against what the fast batches defer: a shared frame counts once, so a loop
turn at 1,000 clients takes far more 64-byte messages than
``pause_at / (size x clients)``; the turn's frame stays under ``frame_cap``;
what is over either waits for the flush and then goes, in order."""
from __future__ import annotations

import asyncio

from sockbench_server import Group, broadcast
from sockbench_server.protocol.options import FAST
from sockbench_server.tornado_io.shedding import OutputBudget
from sockbench_server.tornado_io.tornado_private import SHARED_FRAME_COPY_LIMIT

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "unit"))
from fakes import make_service, messages_of, open_sessions  # noqa: E402
from test_group_fanout import room_app  # noqa: E402

MiB = 1024 * 1024
MESSAGE = "x" * 64


class Stream:
    """What the budget keeps of a client stream: only its presence counts here."""

    def pause_reading(self):
        pass

    def resume_reading(self):
        pass


def watched_room(budget, clients):
    """A fast broadcast room of ``clients`` open sessions whose batches
    ``budget`` counts, and as many client streams tracked by it."""
    group = Group()
    svc, timers = make_service(room_app(group), broadcast=FAST)
    sessions = open_sessions(svc, clients)
    budget.watch(svc.fanout)
    for _ in range(clients):
        budget.track(Stream())
    return group, timers, sessions


def admitted_in_one_turn(budget, group, offered):
    """How many of ``offered`` messages the budget admits, each broadcast
    to ``group`` as the app would, before the turn ends."""
    taken = 0
    for _ in range(offered):
        cost = budget.admit_now(len(MESSAGE))
        if not cost:
            break
        broadcast(group, MESSAGE)
        budget.release(cost)
        taken += 1
    return taken


def test_a_turn_at_1000_clients_takes_messages_up_to_the_frame_cap_not_a_copy_per_client():
    async def check():
        budget = OutputBudget(64 * MiB, session_cap=1 * MiB)
        group, timers, sessions = watched_room(budget, 1000)
        taken = admitted_in_one_turn(budget, group, 10_000)
        # Copies per client would stop at 32 MiB / (65 x 1000), about 500.
        assert taken > 3 * budget.pause_at // (len(MESSAGE) + 1) // 1000
        # The frame cap: a quarter of the per-session cap of bytes of messages.
        assert budget.batched <= budget.frame_cap
        assert taken == budget.frame_cap // (len(MESSAGE) + 2 + 1)  # '"x..x"' and its comma
        assert budget.deferred <= budget.batched + 1000 * SHARED_FRAME_COPY_LIMIT
        assert budget.in_flight == 0
        timers.end_iteration()  # the flush: everything written, nothing deferred
        assert (budget.deferred, budget.batched) == (0, 0)
        frames = sessions[0][1].frames
        assert len(frames) == 2 and len(messages_of(frames)) == taken  # "o" and one a[...]
    asyncio.run(check())


def test_the_deferred_memory_counts_against_pause_at_with_what_is_unsent():
    async def check():
        budget = OutputBudget(64 * MiB, session_cap=64 * MiB)  # frame cap out of the way
        group, _, _ = watched_room(budget, 10)
        budget.add(budget.pause_at - 10 * (len(MESSAGE) + 3) * 3)  # unsent: room for ~3 messages
        taken = admitted_in_one_turn(budget, group, 100)
        assert 1 <= taken <= 3
        assert budget.total + budget.deferred <= budget.pause_at
    asyncio.run(check())


def test_a_message_over_the_frame_cap_waits_for_the_flush_then_goes():
    async def check():
        budget = OutputBudget(64 * MiB, session_cap=4 * 1024)  # frame cap: 1 KiB
        group, timers, sessions = watched_room(budget, 5)
        taken = admitted_in_one_turn(budget, group, 100)
        assert 0 < taken < 100 and not budget.admit_now(len(MESSAGE))
        waiting = asyncio.ensure_future(budget.admit(len(MESSAGE)))
        await asyncio.sleep(0)
        assert not waiting.done()
        timers.end_iteration()  # the fan-out's flush
        cost = await asyncio.wait_for(waiting, 1.0)  # then the turn's end lets it in
        assert cost > 0
        budget.release(cost)
        assert budget.in_flight == 0
    asyncio.run(check())


def test_the_first_message_of_a_turn_always_goes():
    async def check():
        budget = OutputBudget(1024, session_cap=1024)  # smaller than one fan-out
        group, _, _ = watched_room(budget, 100)
        assert admitted_in_one_turn(budget, group, 10) == 1
    asyncio.run(check())

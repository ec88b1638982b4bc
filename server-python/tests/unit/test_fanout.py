"""Who gets a message (protocol/fanout.py), in both modes: a session over
its cap is closed alone, fast and naive deliver the same messages for any
sequence, and naive mode's send per recipient."""
from __future__ import annotations

import random

import pytest

from sockbench_server import broadcast
from sockbench_server.apps.broadcast import make_broadcast
from sockbench_server.protocol.errors import SLOW_CONSUMER_CLOSE, SlowConsumer
from sockbench_server.protocol.options import FAST, NAIVE
from sockbench_server.protocol.states import CLOSED
from sockbench_server.protocol.ratelog import slow_consumers
from fakes import FakeReceiver, WireReceiver, info, make_service, messages_of, open_sessions
from test_batch import GoneAfterOpen, farewell_room


class StalledWire(WireReceiver):
    """A websocket whose client stopped reading: every write leaves more
    unsent than the cap, so the receiver says so after writing."""

    def write_prebuilt(self, wire):
        super().write_prebuilt(wire)
        if wire != b"<o>":
            raise SlowConsumer(10 ** 9)
        return True

    def send_frame(self, frame):  # as the real websocket receiver does
        return self.write_prebuilt(self.encode_wire(frame))


@pytest.mark.parametrize("mode", [FAST, NAIVE])
def test_a_receiver_over_the_cap_closes_only_its_session(mode, caplog):
    slow_consumers.last = -float("inf")  # the log line is rate-limited process-wide
    svc, timers = make_service(make_broadcast(), broadcast=mode)
    stalled = svc.create("stalled", info())
    rs = StalledWire()
    stalled.attach(rs)
    (good, rg), = open_sessions(svc, 1)
    for m in ("a", "b"):
        broadcast([stalled.conn, good.conn], m)
        timers.end_iteration()
    assert not stalled.conn.is_open and good.conn.is_open
    assert rs.frames[-1] == 'c[%d,"%s"]' % SLOW_CONSUMER_CLOSE
    assert rs.closed == SLOW_CONSUMER_CLOSE  # the websocket close says why too
    assert messages_of(rg.frames) == ["a", "b"]
    assert sum("client not reading" in r.getMessage() for r in caplog.records) == 1


@pytest.mark.parametrize("seed", range(20))
def test_fast_and_naive_deliver_the_same_messages(seed):
    """Random rooms, private sends, closes and iteration ends: every session
    gets the same messages in the same order in both modes."""
    results = {}
    for mode in (NAIVE, FAST):
        rng = random.Random(seed)
        svc, timers = make_service(make_broadcast(), broadcast=mode)
        sessions = open_sessions(svc, 6, receiver=rng.choice([FakeReceiver, WireReceiver]))
        for step in range(60):
            action = rng.random()
            if action < 0.6:
                room = [s.conn for s, _ in sessions if rng.random() < 0.7]
                broadcast(room, "m%d" % step)
            elif action < 0.75:
                rng.choice(sessions)[0].conn.send("p%d" % step)
            elif action < 0.78:
                rng.choice(sessions)[0].close()
            else:
                timers.end_iteration()
        timers.end_iteration()
        results[mode] = [messages_of(r.frames) for _, r in sessions]
    assert results[FAST] == results[NAIVE]
    assert any(results[FAST])


# -- naive mode: a send per recipient ------------------------------------------

def test_a_naive_broadcast_to_a_session_whose_client_vanished_ends_only_that_session():
    app = make_broadcast()
    svc, _ = make_service(app, broadcast=NAIVE)
    (first, r1), = open_sessions(svc, 1)
    gone = svc.create("gone", info())
    gone.attach(GoneAfterOpen())
    (last, r2), = open_sessions(svc, 1)
    assert broadcast(app.members, "x") == 2
    assert gone.state == CLOSED and gone.conn not in app.members  # its on_close ran
    assert broadcast(app.members, "y") == 2
    assert messages_of(r1.frames) == messages_of(r2.frames) == ["x", "y"]
    assert first.conn.is_open and last.conn.is_open


def test_a_naive_broadcast_reads_the_clock_once_and_stamps_every_copy_with_it():
    app = make_broadcast()
    svc, timers = make_service(app, broadcast=NAIVE)
    sessions = open_sessions(svc, 5) + open_sessions(svc, 2, receiver=FakeReceiver)
    reads = []

    def clock():  # every read of the clock is a later time
        reads.append(None)
        timers.now += 0.001
        return timers.now
    timers.time = clock
    broadcast(app.members, "x")
    assert len(reads) == 1
    assert {s.last_output for s, _ in sessions} == {timers.now}


@pytest.mark.parametrize("reaction", ["send", "broadcast"])
def test_application_code_run_by_a_naive_copy_loses_no_message(reaction):
    """A copy finds a client gone; its on_close, run in the middle of the
    broadcast, sends to (or broadcasts to) the others: each gets every
    message, the inner one where on_close sent it."""
    room, _, rb, ra = farewell_room(reaction, NAIVE)
    assert broadcast(list(room), "1") == 2
    broadcast(list(room), "2")
    assert messages_of(rb.frames) == ["1", "bye", "2"]
    assert messages_of(ra.frames) == ["bye", "1", "2"]

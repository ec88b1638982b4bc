"""The fast batch (protocol/batch.py): coalescing per loop iteration,
shared wire bytes, order with private sends and gaps, a polling session's
next poll, a close, the queue cap, and application code run by a flush."""
from __future__ import annotations

import pytest

from sockbench_server import SockJSConnection, broadcast
from sockbench_server.apps.broadcast import make_broadcast
from sockbench_server.protocol.errors import SLOW_CONSUMER_CLOSE, ReceiverGone
from sockbench_server.protocol.options import FAST
from sockbench_server.protocol.states import CLOSED
from fakes import FakeReceiver, info, make_service, messages_of, open_sessions, polling




def test_one_frame_per_iteration_and_the_same_bytes_object_for_everyone():
    app = make_broadcast()
    svc, timers = make_service(app, broadcast=FAST)
    sessions = open_sessions(svc, 5)
    for m in ("a", "b", "c"):
        broadcast(app.members, m)
    assert all(r.wires == [] for _, r in sessions)  # nothing before the iteration ends
    timers.end_iteration()
    wires = [r.wires[0] for _, r in sessions]
    assert wires[0] == b'<a["a","b","c"]>'
    assert all(w is wires[0] for w in wires)  # built once, shared


def test_a_session_that_missed_a_broadcast_gets_its_own_frame_in_order():
    svc, timers = make_service(make_broadcast(), broadcast=FAST)
    (s0, r0), (s1, r1) = open_sessions(svc, 2)
    both = [s0.conn, s1.conn]
    broadcast(both, "1")
    broadcast([s0.conn], "2")
    broadcast(both, "3")
    timers.end_iteration()
    assert r0.frames[-1] == 'a["1","2","3"]'
    assert r1.frames[-1] == 'a["1","3"]'


def test_a_private_send_goes_after_the_broadcasts_before_it():
    svc, timers = make_service(make_broadcast(), broadcast=FAST)
    (s0, r0), (s1, r1) = open_sessions(svc, 2)
    broadcast([s0.conn, s1.conn], "shared")
    s0.conn.send("private")
    broadcast([s0.conn, s1.conn], "later")
    timers.end_iteration()
    assert messages_of(r0.frames) == ["shared", "private", "later"]
    assert messages_of(r1.frames) == ["shared", "later"]


def test_a_polling_session_without_a_request_gets_them_on_its_next_poll():
    svc, timers = make_service(make_broadcast(), broadcast=FAST)
    s = svc.create("p", info())
    s.attach(polling())  # takes "o" and leaves
    broadcast([s.conn], "x")
    broadcast([s.conn], "y")
    timers.end_iteration()
    r = polling()
    s.attach(r)
    assert r.frames == ['a["x","y"]']


def test_a_close_sends_the_pending_broadcasts_first_then_nothing_more():
    svc, timers = make_service(make_broadcast(), broadcast=FAST)
    (s0, r0), (s1, r1) = open_sessions(svc, 2)
    broadcast([s0.conn, s1.conn], "x")
    s0.close()
    broadcast([s0.conn, s1.conn], "y")
    timers.end_iteration()
    assert r0.frames == ["o", 'a["x"]', 'c[3000,"Go away!"]']
    assert r1.frames == ["o", 'a["x","y"]']


def test_unread_queue_past_max_buffer_closes_the_session():
    svc, timers = make_service(make_broadcast(), broadcast=FAST, max_buffer=100)
    s = svc.create("p", info())
    s.attach(polling())
    for _ in range(3):
        broadcast([s.conn], "x" * 30)
        timers.end_iteration()
    assert s.state != CLOSED and s.conn.is_open  # 96 bytes queued
    broadcast([s.conn], "x" * 30)
    timers.end_iteration()
    assert not s.conn.is_open
    r = polling()
    s.attach(r)
    assert r.frames == ['c[%d,"%s"]' % SLOW_CONSUMER_CLOSE]


class GoneAfterOpen(FakeReceiver):
    """A client that went away after ``o``: the next write finds it gone."""

    def send_frame(self, frame):
        if frame != "o":
            raise ReceiverGone()
        return super().send_frame(frame)


def farewell_room(reaction, mode):
    """Sessions "before", "gone" (its client vanished after the open frame)
    and "after" of an app whose on_close sends "bye" to the others
    (``reaction`` "send") or broadcasts it ("broadcast"): (room, timers,
    the receivers of "before" and "after")."""
    room = []

    class Chat(SockJSConnection):
        def on_open(self, info):
            room.append(self)

        def on_close(self):
            room.remove(self)
            if reaction == "send":
                for conn in room:
                    conn.send("bye")
            else:
                broadcast(list(room), "bye")

    svc, timers = make_service(Chat, broadcast=mode)
    before, rb = svc.create("before", info()), FakeReceiver()
    before.attach(rb)
    svc.create("gone", info()).attach(GoneAfterOpen())
    after, ra = svc.create("after", info()), FakeReceiver()
    after.attach(ra)
    return room, timers, rb, ra


@pytest.mark.parametrize("reaction", ["send", "broadcast"])
def test_application_code_run_by_a_flush_loses_no_message(reaction):
    """The flush finds a client gone; its on_close, run in the middle of the
    flush, sends to (or broadcasts to) the others. Those written before it
    and those not written yet keep the iteration's broadcasts, in order,
    then get what on_close sent."""
    room, timers, rb, ra = farewell_room(reaction, FAST)
    broadcast(list(room), "1")
    broadcast(list(room), "2")
    timers.end_iteration()
    assert messages_of(rb.frames) == ["1", "2", "bye"]
    assert messages_of(ra.frames) == ["1", "2", "bye"]

"""Broadcasting to a Group in fast mode (its survey in protocol/fanout.py,
its run in protocol/batch.py): another message to the same unchanged group
looks at no member, and every change in the middle of an iteration -
membership, a private send, a close, raw websockets, another group, relayed
frames - keeps each session's messages and their order as naive mode has
them."""
from __future__ import annotations

import random

import pytest

from sockbench_server import Group, SockJSConnection, broadcast
from sockbench_server.protocol.errors import ReceiverGone
from sockbench_server.protocol.fanout import deliver_relayed
from sockbench_server.protocol.options import FAST, NAIVE
from sockbench_server.scaleout.domain import join_domain
from fakes import FakeReceiver, WireReceiver, info, make_service, messages_of, open_sessions, polling


class WalkCountingGroup(Group):
    """Counts every walk over its members; once ``forbidden``, a walk fails."""

    __slots__ = ("walks", "forbidden")

    def __init__(self):
        super().__init__()
        self.walks = 0
        self.forbidden = False

    def __iter__(self):
        assert not self.forbidden, "the members were walked"
        self.walks += 1
        return super().__iter__()


def room_app(group):
    """An application whose connections are members of ``group`` while open."""

    class Room(SockJSConnection):
        members = group

        def on_open(self, info):
            group.add(self)

        def on_close(self):
            group.discard(self)

    return Room


def room(mode=FAST, n=3, group=None, receiver=WireReceiver):
    """``n`` open sessions of a room app: (group, timers, service, [(session, receiver)])."""
    group = WalkCountingGroup() if group is None else group
    svc, timers = make_service(room_app(group), broadcast=mode)
    return group, timers, svc, open_sessions(svc, n, receiver)


def test_messages_to_an_unchanged_group_go_out_as_one_frame_with_shared_bytes():
    group, timers, _, sessions = room(n=5)
    assert [broadcast(group, m) for m in ("a", "b", "c")] == [5, 5, 5]
    assert all(r.wires == [] for _, r in sessions)  # nothing before the iteration ends
    timers.end_iteration()
    wires = [r.wires[-1] for _, r in sessions]
    assert wires[0] == b'<a["a","b","c"]>'
    assert all(w is wires[0] for w in wires)  # built once, one write per session


def test_another_message_to_an_unchanged_group_looks_at_no_member():
    """The O(1) claim, checked by what the broadcast touches: after the
    iteration's first message the group is never walked again, and no
    member's connection is asked for its session."""
    reads = []

    group = WalkCountingGroup()

    class Watched(room_app(group)):
        @property
        def session(self):
            reads.append(self)
            return self._session

        @session.setter
        def session(self, value):
            self._session = value

    svc, timers = make_service(Watched, broadcast=FAST)
    receivers = []
    for i in range(50):
        r = WireReceiver()
        svc.create("s%d" % i, info()).attach(r)
        receivers.append(r)
    for turn in range(2):
        group.forbidden = False
        assert broadcast(group, "first %d" % turn) == 50
        group.forbidden = True
        del reads[:]
        for i in range(200):
            assert broadcast(group, "m%d" % i) == 50
        assert reads == []
        timers.end_iteration()
    assert all(messages_of(r.frames)[-201:] == ["first 1"] + ["m%d" % i for i in range(200)]
               for r in receivers)
    assert all(len(r.wires) == 2 for r in receivers)  # one frame per iteration


def test_a_member_joining_mid_iteration_gets_what_is_broadcast_after_it_joined():
    group, timers, svc, [(a, ra), (b, rb)] = room(n=2)
    broadcast(group, "1")
    broadcast(group, "2")
    c, rc = svc.create("late", info()), WireReceiver()
    c.attach(rc)  # on_open: group.add
    broadcast(group, "3")
    broadcast(group, "4")
    timers.end_iteration()
    assert ra.frames[1:] == rb.frames[1:] == ['a["1","2","3","4"]']  # still one frame each
    assert ra.wires[-1] is rb.wires[-1]  # and still the same bytes
    assert rc.frames == ["o", 'a["3","4"]']


def test_a_member_leaving_mid_iteration_keeps_what_it_got_before():
    group, timers, _, [(a, ra), (b, rb)] = room(n=2)
    broadcast(group, "1")
    broadcast(group, "2")
    group.discard(b.conn)
    assert broadcast(group, "3") == 1
    timers.end_iteration()
    assert ra.frames[1:] == ['a["1","2","3"]']
    assert rb.frames[1:] == ['a["1","2"]']


def test_a_private_send_mid_iteration_goes_between_the_broadcasts_around_it():
    group, timers, _, [(a, ra), (b, rb)] = room(n=2)
    broadcast(group, "1")
    broadcast(group, "2")
    a.conn.send("private")
    walks = group.walks
    broadcast(group, "3")  # the group is looked at once more ...
    group.forbidden = True
    broadcast(group, "4")  # ... and then the run goes on
    timers.end_iteration()
    assert group.walks > walks
    assert messages_of(ra.frames) == ["1", "2", "private", "3", "4"]
    assert rb.frames[1:] == ['a["1","2","3","4"]']


def test_a_member_closing_mid_iteration_gets_the_earlier_broadcasts_then_its_close():
    group, timers, _, [(a, ra), (b, rb)] = room(n=2)
    assert broadcast(group, "1") == 2
    b.close()
    assert broadcast(group, "2") == 1
    timers.end_iteration()
    assert rb.frames == ["o", 'a["1"]', 'c[3000,"Go away!"]']
    assert ra.frames[1:] == ['a["1","2"]']


@pytest.mark.parametrize("how", ["connection dropped", "closed between two polls"])
def test_a_member_gone_mid_iteration_is_not_counted_even_while_still_in_the_group(how):
    """The group belongs to the application, which may keep a closed
    connection in it; the count of takers follows the sessions."""
    group = WalkCountingGroup()
    svc, timers = make_service(broadcast=FAST)  # an app that never touches the group
    sessions = []
    for i in range(3):
        s = svc.create("s%d" % i, info())
        r = polling() if i == 0 and how == "closed between two polls" else WireReceiver()
        s.attach(r)
        group.add(s.conn)
        sessions.append((s, r))
    assert broadcast(group, "1") == 3
    (gone, rg), (_, r1), (_, r2) = sessions
    if how == "connection dropped":
        gone.receiver_gone(rg)
    else:
        gone.close()  # no request attached: the close frame waits for the next poll
    assert broadcast(group, "2") == 2
    assert broadcast(group, "3") == 2
    timers.end_iteration()
    assert r1.frames[1:] == r2.frames[1:] == ['a["1","2","3"]']
    assert rg.frames == ["o"]


def test_raw_websockets_in_a_group_get_each_message_at_once_framed_ones_one_frame():
    group, timers, svc, framed = room(n=2)
    raw, rr = svc.create_raw(info()), FakeReceiver()
    raw.attach(rr)  # on_open: group.add
    assert broadcast(group, "1") == 3
    group.forbidden = True
    assert broadcast(group, "2") == 3
    assert rr.frames == ["1", "2"]  # raw: one websocket message per message, at once
    assert all(r.frames == ["o"] for _, r in framed)
    timers.end_iteration()
    assert all(r.frames == ["o", 'a["1","2"]'] for _, r in framed)
    group.forbidden = False
    raw.close()  # on_close: group.discard
    assert broadcast(group, "3") == 2
    timers.end_iteration()
    assert rr.frames == ["1", "2"]


def schedule_of_two_groups(mode):
    """Overlapping groups {a, b} and {b, c}, alternating and repeating."""
    g1, g2 = Group(), Group()
    svc, timers = make_service(broadcast=mode)
    out = []
    for i in range(3):
        s, r = svc.create("s%d" % i, info()), WireReceiver()
        s.attach(r)
        out.append(r)
    a, b, c = (svc.lookup("s%d" % i).conn for i in range(3))
    g1.add(a), g1.add(b), g2.add(b), g2.add(c)
    for group, m in ((g1, "1"), (g2, "2"), (g1, "3"), (g1, "4"), (g2, "5"), (g2, "6"),
                     (g1, "7")):
        broadcast(group, m)
    timers.end_iteration()
    return [messages_of(r.frames) for r in out]


def test_two_groups_broadcast_in_turn_keep_every_members_order():
    fast = schedule_of_two_groups(FAST)
    assert fast == [["1", "3", "4", "7"], ["1", "2", "3", "4", "5", "6", "7"], ["2", "5", "6"]]
    assert fast == schedule_of_two_groups(NAIVE)


def test_a_group_and_another_iterable_interleaved_keep_every_members_order():
    group, timers, _, [(a, ra), (b, rb)] = room(n=2)
    broadcast(group, "1")
    broadcast([a.conn], "2")
    broadcast(group, "3")
    broadcast({b.conn}, "4")
    broadcast(group, "5")
    timers.end_iteration()
    assert messages_of(ra.frames) == ["1", "2", "3", "5"]
    assert messages_of(rb.frames) == ["1", "3", "4", "5"]


class RecordingRelay:
    """RedisRelay's interface towards the service, recording."""

    def __init__(self):
        self.batches = []
        self.receiver = None

    def publish_batch(self, frame, count):
        self.batches.append((frame, count))

    def publish_message(self, message):  # pragma: no cover - naive mode only
        raise AssertionError("fast mode publishes batches")

    def set_receiver(self, receiver):
        self.receiver = receiver


def test_relayed_frames_join_a_groups_run_in_arrival_order():
    group, timers, svc, framed = room(n=2)
    svc.prefix = "/broadcast"
    raw, rr = svc.create_raw(info()), FakeReceiver()
    raw.attach(rr)
    relay = RecordingRelay()
    join_domain(svc, relay)  # relayed messages go to Room.members, the group
    relay.receiver("a", 'a["r1","r2"]')
    group.forbidden = True
    broadcast(group, "own")
    relay.receiver("m", "r3")
    relay.receiver("a", "a[]")
    broadcast(group, "own2")
    timers.end_iteration()
    assert all(r.frames[1:] == ['a["r1","r2","own","r3","own2"]'] for _, r in framed)
    assert rr.frames == ["r1", "r2", "own", "r3", "own2"]
    assert relay.batches == [('a["own","own2"]', 2)]  # this process's own only


def test_a_relayed_frame_a_raw_member_cannot_decode_is_dropped_for_the_whole_group(caplog):
    group, timers, svc, framed = room(n=2)
    raw, rr = svc.create_raw(info()), FakeReceiver()
    raw.attach(rr)
    assert deliver_relayed(group, "a", "a[broken]") == 0
    assert deliver_relayed(group, "a", 'a["ok"]') == 3
    timers.end_iteration()
    assert "dropped a relayed frame" in caplog.text
    assert rr.frames == ["ok"] and all(r.frames[1:] == ['a["ok"]'] for _, r in framed)


def test_a_member_not_open_yet_makes_the_group_take_the_per_session_path():
    """It may open without the group changing; from then on it gets what
    is broadcast, as with any other iterable."""
    group, timers, svc, [(a, ra)] = room(n=1)
    waiting = svc.create("waiting", info())
    group.add(waiting.conn)
    assert broadcast(group, "1") == 1
    rw = WireReceiver()
    waiting.attach(rw)  # opens; the app adds it again, which changes nothing
    assert broadcast(group, "2") == 2
    timers.end_iteration()
    assert messages_of(ra.frames) == ["1", "2"]
    assert rw.frames == ["o", 'a["2"]']


def test_a_group_in_naive_mode_gets_a_frame_per_message():
    group, timers, _, sessions = room(mode=NAIVE, n=2)
    broadcast(group, "1")
    broadcast(group, "2")
    timers.end_iteration()
    assert all(r.frames == ["o", 'a["1"]', 'a["2"]'] for _, r in sessions)


def test_a_group_of_two_services_gets_each_its_own_mode():
    group = Group()
    app = room_app(group)
    naive, naive_timers = make_service(app, broadcast=NAIVE)
    fast, fast_timers = make_service(app, broadcast=FAST)
    rn, rf = FakeReceiver(), FakeReceiver()
    naive.create("n", info()).attach(rn)
    fast.create("f", info()).attach(rf)
    assert broadcast(group, "1") == 2
    assert broadcast(group, "2") == 2
    naive_timers.end_iteration()
    fast_timers.end_iteration()
    assert rn.frames == ["o", 'a["1"]', 'a["2"]']
    assert rf.frames == ["o", 'a["1","2"]']


def test_an_empty_group_takes_nothing():
    svc, timers = make_service(broadcast=FAST)
    assert broadcast(Group(), "x") == 0
    assert deliver_relayed(Group(), "a", 'a["x"]') == 0


class GoneAfterOpen(FakeReceiver):
    """A client that went away after ``o``: the next write finds it gone."""

    def send_frame(self, frame):
        if frame != "o":
            raise ReceiverGone()
        return super().send_frame(frame)


def test_a_group_broadcast_from_on_close_during_the_flush_loses_nothing():
    """The flush finds a client gone; its on_close tells the group, in the
    middle of the flush. Members written before and after it keep the
    iteration's messages and then get the farewell, which goes on in a run
    of its own for anything else broadcast meanwhile."""
    group = WalkCountingGroup()

    class Chat(room_app(group)):
        def on_close(self):
            super().on_close()
            broadcast(group, "bye")
            broadcast(group, "bye again")

    svc, timers = make_service(Chat, broadcast=FAST)
    receivers = {}
    for name in ("before", "gone", "after", "after too"):
        r = GoneAfterOpen() if name == "gone" else WireReceiver()
        svc.create(name, info()).attach(r)
        receivers[name] = r
    broadcast(group, "1")
    broadcast(group, "2")
    timers.end_iteration()
    for name in ("before", "after", "after too"):
        assert messages_of(receivers[name].frames) == ["1", "2", "bye", "bye again"], name


# -- the same messages as naive mode, whatever happens -----------------------

def random_schedule(mode, seed):
    """Two groups and their app; random broadcasts to them and to other
    iterables, membership changes, private sends, closes, relayed frames
    and iteration ends. Returns every session's messages."""
    rng = random.Random(seed)
    groups = [Group(), Group()]
    svc, timers = make_service(broadcast=mode)
    sessions = []
    for i in range(8):
        if i < 2:
            s, r = svc.create_raw(info()), FakeReceiver()
        else:
            s, r = svc.create("s%d" % i, info()), rng.choice([FakeReceiver, WireReceiver])()
        s.attach(r)
        sessions.append((s, r))
    for s, _ in sessions:
        for g in groups:
            if rng.random() < 0.7:
                g.add(s.conn)
    for step in range(120):
        action = rng.random()
        s = rng.choice(sessions)[0]
        if action < 0.45:
            broadcast(rng.choice(groups), "g%d" % step)
        elif action < 0.5:
            deliver_relayed(rng.choice(groups), "a", 'a["r%d","R%d"]' % (step, step))
        elif action < 0.55:
            broadcast([c.conn for c, _ in sessions if rng.random() < 0.5], "l%d" % step)
        elif action < 0.65:
            g = rng.choice(groups)
            (g.discard if s.conn in g else g.add)(s.conn)
        elif action < 0.75:
            s.conn.send("p%d" % step)
        elif action < 0.77:
            s.close()
        else:
            timers.end_iteration()
    timers.end_iteration()
    return [r.frames if not s.framed else messages_of(r.frames) for s, r in sessions]


@pytest.mark.parametrize("seed", range(40))
def test_group_broadcasts_in_fast_mode_deliver_what_naive_mode_does(seed):
    fast = random_schedule(FAST, seed)
    assert fast == random_schedule(NAIVE, seed)
    assert sum(map(len, fast)) > 100

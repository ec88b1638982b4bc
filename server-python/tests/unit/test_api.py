from __future__ import annotations

import json

import pytest

from sockbench_server import Group, SockJSConnection, broadcast
from sockbench_server.protocol.codecs import Codec
from sockbench_server.protocol.errors import ReceiverGone
from sockbench_server.protocol.options import FAST, NAIVE, ServiceOptions
from sockbench_server.apps import default_mounts
from sockbench_server.apps.broadcast import make_broadcast
from fakes import FakeReceiver, info, make_service, naive_and_fast


@pytest.fixture(params=[FAST, NAIVE])
def mode(request):
    """The broadcast mode of the services a test makes."""
    return request.param


def test_broadcast_reaches_everyone_including_sender_in_order(mode):
    app = make_broadcast()
    svc, timers = make_service(app, broadcast=mode)
    sessions = []
    for i in range(3):
        s = svc.create("s%d" % i, info())
        r = FakeReceiver()
        s.attach(r)
        sessions.append((s, r))
    sessions[0][0].receive(["one", "two"])
    timers.end_iteration()
    sessions[2][0].receive(["three"])
    timers.end_iteration()
    for _, r in sessions:
        if mode == NAIVE:  # a frame per message
            assert r.frames == ["o", 'a["one"]', 'a["two"]', 'a["three"]']
        else:  # a frame per loop iteration
            assert r.frames == ["o", 'a["one","two"]', 'a["three"]']
    assert len(app.members) == 3


def test_broadcast_survives_members_closing_during_fan_out(mode):
    closed = []

    class Fragile(SockJSConnection):
        room = set()

        def on_open(self, info):
            self.room.add(self)

        def on_close(self):
            self.room.discard(self)
            closed.append(self)

    class Dying(FakeReceiver):
        def send_frame(self, frame):
            if frame != "o":
                raise ReceiverGone()
            return super().send_frame(frame)

    svc, timers = make_service(Fragile, broadcast=mode)
    good = svc.create("good", info())
    rg = FakeReceiver()
    good.attach(rg)
    bad = svc.create("bad", info())
    bad.attach(Dying())
    taken = broadcast(Fragile.room, "hello")
    # Fast mode writes at the end of the iteration, so it finds the dead
    # connection only then.
    assert taken == (1 if mode == NAIVE else 2)
    timers.end_iteration()
    assert rg.frames[-1] == 'a["hello"]'
    assert closed == [bad.conn] and Fragile.room == {good.conn}


def test_two_broadcast_mounts_do_not_share_members():
    assert make_broadcast().members is not make_broadcast().members


def test_the_broadcast_app_keeps_its_participants_in_a_group():
    """So that fast mode queues each further message of a loop iteration in
    O(1) (tests/unit/test_group_fanout.py)."""
    app = make_broadcast()
    svc, _ = make_service(app, broadcast=FAST)
    s = svc.create("s", info())
    s.attach(FakeReceiver())
    assert isinstance(app.members, Group) and list(app.members) == [s.conn]
    s.close()
    assert list(app.members) == []


def test_default_mounts_follow_the_contract():
    mounts = {prefix: opts for prefix, _, opts in default_mounts(7.5)}
    assert set(mounts) == {"/broadcast", "/echo", "/close", "/disabled_websocket_echo",
                           "/cookie_needed_echo"}
    assert all(o.heartbeat == 7.5 and o.disconnect_delay == 5.0 for o in mounts.values())
    assert mounts["/echo"].response_limit == 4096
    assert mounts["/broadcast"].response_limit == 128 * 1024
    assert mounts["/disabled_websocket_echo"].websocket is False
    assert mounts["/cookie_needed_echo"].cookie_needed is True


def test_raw_and_framed_recipients_get_the_same_message(mode):
    app = make_broadcast()
    svc, timers = make_service(app, broadcast=mode)
    framed = svc.create("f", info())
    rf = FakeReceiver()
    framed.attach(rf)
    raw = svc.create_raw(info())
    rr = FakeReceiver()
    raw.attach(rr)
    assert broadcast(app.members, 'q"\u2028') == 2
    timers.end_iteration()
    assert rf.frames[-1] == 'a["q\\"\\u2028"]'
    assert rr.frames == ['q"\u2028']


def test_fast_mode_encodes_once_naive_per_recipient(mode):
    app = make_broadcast()
    svc, _ = make_service(app, broadcast=mode)
    calls = []

    def encode_str(s):
        calls.append(s)
        return json.dumps(s)

    svc.codec = Codec(name="json", version="counting", encode_str=encode_str, decode=json.loads)
    for i in range(4):
        svc.create("s%d" % i, info()).attach(FakeReceiver())
    broadcast(app.members, "m")
    assert len(calls) == (1 if mode == FAST else 4)


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError):
        ServiceOptions(broadcast="turbo")


def test_each_service_broadcasts_in_its_own_mode():
    """The mode is a service option, not a process-wide switch: one
    broadcast to members of a naive and a fast service gives the naive ones
    a frame per message and the fast ones one frame per iteration."""
    app = make_broadcast()
    rn, rf, end_iteration = naive_and_fast(app)
    assert broadcast(app.members, "1") == 2
    assert broadcast(app.members, "2") == 2
    end_iteration()
    assert rn.frames == ["o", 'a["1"]', 'a["2"]']
    assert rf.frames == ["o", 'a["1","2"]']


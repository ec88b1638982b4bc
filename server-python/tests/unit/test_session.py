"""The session state machine, driven by fake receivers and a fake clock."""
from __future__ import annotations

import pytest

from sockbench_server.protocol import errors, options, states, timing
from fakes import FakeReceiver, Recorder, info, make_service, polling


def opened(svc, sid="s1", receiver=None):
    s = svc.create(sid, info())
    r = receiver if receiver is not None else FakeReceiver()
    s.attach(r)
    return s, r


def test_timer_decision():
    def decide(now, attached):
        return timing.timer_decision(now=now, attached=attached, last_output=0, heartbeat=25,
                                     detached_at=0, disconnect_delay=5)
    assert decide(10, attached=True) == (timing.WAIT, 25)
    assert decide(25, attached=True) == (timing.SEND_HEARTBEAT, None)
    assert decide(4.9, attached=False) == (timing.WAIT, 5)
    assert decide(5, attached=False) == (timing.EXPIRE, None)


def test_open_sends_o_then_calls_on_open():
    svc, _ = make_service()
    s, r = opened(svc)
    assert r.frames == ["o"]
    assert s.state == states.OPEN
    assert [e[0] for e in svc.connection_class.events] == ["open"]
    assert svc.lookup("s1") is s and s in svc.live


def test_polling_receiver_gets_one_frame_and_is_closed():
    svc, _ = make_service()
    s, r = opened(svc, receiver=polling())
    assert r.frames == ["o"] and r.closed
    assert s.receiver is None
    s.conn.send("a")
    s.conn.send("b")
    r2 = polling()
    s.attach(r2)
    assert r2.frames == ['a["a","b"]'] and r2.closed


def test_streaming_receiver_gets_messages_as_they_come():
    svc, _ = make_service()
    s, r = opened(svc)
    assert s.send("x") and s.send("y\u2028")
    assert r.frames == ["o", 'a["x"]', 'a["y\\u2028"]']
    assert r.closed is None


def test_second_receiver_gets_2010_and_session_is_untouched():
    svc, _ = make_service()
    s, r1 = opened(svc)
    r2 = FakeReceiver()
    s.attach(r2)
    assert r2.frames == ['c[2010,"Another connection still open"]'] and r2.closed
    assert s.receiver is r1
    s.send("still")
    assert r1.frames[-1] == 'a["still"]'


def test_close_with_receiver_sends_close_frame_and_keeps_serving_it():
    svc, timers = make_service()
    s, r = opened(svc)
    s.conn.close(3000, "Go away!")
    assert r.frames[-1] == 'c[3000,"Go away!"]' and r.closed
    assert s.state == states.CLOSING
    events = [e[0] for e in svc.connection_class.events]
    assert events == ["open", "close"]
    for _ in range(2):
        rn = polling()
        s.attach(rn)
        assert rn.frames == ['c[3000,"Go away!"]'] and rn.closed
    assert not s.send("nope")
    # Forgotten disconnect_delay after the last request.
    timers.advance(4.9)
    assert svc.lookup("s1") is s
    timers.advance(0.2)
    assert svc.lookup("s1") is None and s.state == states.CLOSED
    assert [e[0] for e in svc.connection_class.events] == ["open", "close"]


def test_close_right_at_open_polling():
    # The /close app: closing inside on_open must not crash either transport.
    app = type("CloseApp", (Recorder,), {"events": [], "on_open_hook": lambda c: c.close()})
    svc, _ = make_service(app)
    s, r = opened(svc, receiver=polling())
    assert r.frames == ["o"]
    r2 = polling()
    s.attach(r2)
    assert r2.frames == ['c[3000,"Go away!"]']


def test_close_right_at_open_streaming():
    app = type("CloseApp", (Recorder,), {"events": [], "on_open_hook": lambda c: c.close()})
    svc, _ = make_service(app)
    s, r = opened(svc)
    assert r.frames == ["o", 'c[3000,"Go away!"]'] and r.closed
    assert s.state == states.CLOSING


def test_session_expires_after_disconnect_delay_without_receiver():
    svc, timers = make_service()
    s, r = opened(svc, receiver=polling())
    timers.advance(4.0)
    r2 = polling()
    s.attach(r2)            # a poll resets the delay ...
    assert r2.closed is None
    timers.advance(4.0)     # ... while waiting, no expiry (heartbeat is 25 s)
    assert s.state == states.OPEN
    s.send("m")             # the poll returns ...
    timers.advance(4.9)
    assert s.state == states.OPEN
    timers.advance(0.2)     # ... and 5 s later the session is gone
    assert s.state == states.CLOSED and svc.lookup("s1") is None
    assert [e[0] for e in svc.connection_class.events] == ["open", "close"]


def test_heartbeat_after_silence_only():
    svc, timers = make_service(heartbeat=2.0)
    s, r = opened(svc)
    timers.advance(1.5)
    s.send("x")             # output resets the heartbeat timer
    timers.advance(1.9)
    assert r.frames == ["o", 'a["x"]']
    timers.advance(0.2)
    assert r.frames[-1] == "h"
    timers.advance(2.0)
    assert r.frames == ["o", 'a["x"]', "h", "h"]


def test_heartbeat_ends_a_poll():
    svc, timers = make_service(heartbeat=1.0)
    s, r = opened(svc, receiver=polling())
    r2 = polling()
    s.attach(r2)
    timers.advance(1.0)
    assert r2.frames == ["h"] and r2.closed
    timers.advance(4.9)
    assert s.state == states.OPEN
    timers.advance(0.2)
    assert s.state == states.CLOSED


def test_aborted_receiver_ends_session_at_once():
    svc, _ = make_service()
    s, r = opened(svc)
    s.receiver_gone(FakeReceiver())     # not the attached one: ignored
    assert s.state == states.OPEN
    s.receiver_gone(r)
    assert s.state == states.CLOSED and svc.lookup("s1") is None and s not in svc.live
    assert [e[0] for e in svc.connection_class.events] == ["open", "close"]


def test_messages_go_to_the_application_in_order_while_open():
    svc, _ = make_service()
    s, r = opened(svc)
    s.receive(["a", "b"])
    s.close()
    s.receive(["c"])
    msgs = [e[1] for e in svc.connection_class.events if e[0] == "message"]
    assert msgs == ["a", "b"]


def test_application_errors_are_contained(caplog):
    class Boom(Recorder):
        events = []

        def on_message(self, message):
            raise RuntimeError("app bug")

    svc, _ = make_service(Boom)
    s, r = opened(svc)
    s.receive(["x", "y"])
    assert s.state == states.OPEN
    assert "app bug" in caplog.text


def test_websocket_session_lives_as_long_as_its_connection():
    svc, timers = make_service()
    s, r = opened(svc, sid=None)
    assert svc.sessions == {} and s in svc.live
    s.receive_ws_text('["a","b"]')
    s.receive_ws_text('"c"')
    s.receive_ws_text("")
    msgs = [e[1] for e in svc.connection_class.events if e[0] == "message"]
    assert msgs == ["a", "b", "c"]
    s.close()
    assert r.frames[-1] == 'c[3000,"Go away!"]' and r.closed == (1000, "Normal closure")
    assert s.state == states.CLOSED and s not in svc.live
    assert timers.pending == {}


@pytest.mark.parametrize("bad", ['["a', "1", '{"a":1}', "[1]"])
def test_bad_websocket_payload_closes_only_that_session(bad, caplog):
    svc, _ = make_service()
    s1, r1 = opened(svc, sid=None)
    s2, r2 = opened(svc, sid=None)
    s1.receive_ws_text(bad)
    s1.receive_ws_text(bad)  # frames already in flight: ignored, not logged again
    assert r1.closed == (3000, "Broken framing.") and s1.state == states.CLOSED
    assert s2.state == states.OPEN and s2.send("ok")
    assert len([r for r in caplog.records if r.levelname == "WARNING"]) == 1


class Dying(FakeReceiver):
    """A client that vanished after the open frame: the next write finds it gone."""

    def send_frame(self, frame):
        if frame != "o":
            raise errors.ReceiverGone()
        return super().send_frame(frame)


def test_receiver_gone_during_write():
    svc, _ = make_service()
    s, r = opened(svc, receiver=Dying())
    assert not s.send("x")  # the write finds the connection gone
    assert s.state == states.CLOSED


def test_encoded_fragments_and_coalescing():
    svc, _ = make_service()
    s, r = opened(svc)
    fragment = svc.codec.encode_str("shared")
    assert s.enqueue_encoded(fragment) and s.enqueue_encoded(fragment)
    assert r.frames == ["o"]
    s.flush()
    assert r.frames == ["o", 'a["shared","shared"]']
    assert s.send_encoded('"x"')
    assert r.frames[-1] == 'a["x"]'


def test_pending_messages_are_delivered_before_the_close_frame():
    svc, _ = make_service()
    s, r = opened(svc, receiver=polling())
    s.send("last")
    s.close()
    r2 = FakeReceiver()
    s.attach(r2)
    # close() drops the queue: the close frame is what the client gets.
    assert r2.frames == ['c[3000,"Go away!"]']


def test_raw_session():
    svc, _ = make_service()
    s = svc.create_raw(info())
    r = FakeReceiver()
    s.attach(r)
    assert r.frames == []   # no open frame, no framing
    assert s.send("plain \u2028 text")
    assert r.frames == ["plain \u2028 text"]
    s.receive_ws_text("hi")
    s.close(3000, "Go away!")
    assert r.closed == (3000, "Go away!")
    assert s.state == states.CLOSED and not s.send("x")
    events = [e[0] for e in svc.connection_class.events]
    assert events == ["open", "message", "close"]


def test_shutdown_closes_everything():
    svc, _ = make_service()
    s1, r1 = opened(svc, "a")
    s2, r2 = opened(svc, None)
    raw = svc.create_raw(info())
    r3 = FakeReceiver()
    raw.attach(r3)
    svc.shutdown()
    assert r1.frames[-1] == 'c[3000,"Go away!"]' and r1.closed
    assert r2.frames[-1] == 'c[3000,"Go away!"]' and r2.closed
    assert r3.closed == (1001, "Server shutting down")
    assert s2 not in svc.live and raw not in svc.live


def test_options_validation():
    with pytest.raises(ValueError):
        options.ServiceOptions(heartbeat=0)


# -- the clock of a send (the naive broadcast reads it once for every copy) -----

def test_a_send_given_the_clock_stamps_its_output_with_it_and_the_heartbeat_follows():
    svc, timers = make_service(heartbeat=2.0)
    s, r = opened(svc)
    timers.advance(1.5)
    broadcast_began = timers.now
    timers.now += 0.01  # the copies before this one took that long
    assert s.send("x", broadcast_began)
    assert s.last_output == broadcast_began
    timers.advance(1.98)
    assert r.frames == ["o", 'a["x"]']
    timers.advance(0.02)  # never later than heartbeat after the output's stamp
    assert r.frames[-1] == "h"


def test_a_send_without_a_clock_stamps_the_time_after_its_write():
    svc, timers = make_service()

    class Slow(FakeReceiver):
        def send_frame(self, frame):
            timers.now += 0.5
            return super().send_frame(frame)

    s, _ = opened(svc, receiver=Slow())
    assert s.send("x")
    assert s.last_output == timers.now


def test_a_poll_filled_by_a_send_given_the_clock_waits_from_when_it_left():
    """``disconnect_delay`` counts from the poll's end (the clock then), not
    from the stamp of a broadcast that began earlier."""
    svc, timers = make_service(disconnect_delay=5.0)
    s, _ = opened(svc, receiver=polling())
    s.attach(polling())
    assert s.send("x", timers.now - 3.0)
    timers.advance(4.9)
    assert s.state == states.OPEN
    timers.advance(0.2)
    assert s.state == states.CLOSED


def test_a_send_given_the_clock_to_a_vanished_client_ends_the_session():
    svc, timers = make_service()
    s, _ = opened(svc, receiver=Dying())
    assert not s.send("x", timers.now)
    assert s.state == states.CLOSED


def test_a_raw_session_takes_the_clock_and_sends_as_without_it():
    svc, timers = make_service()
    s = svc.create_raw(info())
    r = FakeReceiver()
    s.attach(r)
    assert s.send("x", timers.now) and s.send("y")
    assert r.frames == ["x", "y"]

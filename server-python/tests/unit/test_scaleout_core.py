"""Scale-out, the parts without Redis or processes: the --broker URL, the
relay envelope (docs/protocol.md section 6.1), and how a broadcast service
hands its messages to the relay and takes the relayed ones
(scaleout/domain.py, protocol/fanout.py deliver_relayed): one publish per flush carrying the
frame as encoded for the local sessions (fast) or one per message (naive),
relayed messages delivered once and never published again."""
from __future__ import annotations


import pytest

from sockbench_server import broadcast
from sockbench_server.protocol.fanout import deliver_relayed
from sockbench_server.apps.broadcast import make_broadcast
from sockbench_server.protocol.options import FAST, NAIVE
from sockbench_server.scaleout.broker_url import BrokerUrlError, parse_broker_url
from sockbench_server.scaleout.domain import join_domain
from sockbench_server.scaleout.supervisor_link import (
    Listening, Standby, listening_line, read_worker_line)
from sockbench_server.scaleout.workers import group_ready_line
from sockbench_server.scaleout.envelope import (
    EnvelopeError, batch_envelope, frame_messages, message_envelope, new_origin, open_envelope)
from fakes import FakeReceiver, info, make_service, messages_of, naive_and_fast


# -- --broker --------------------------------------------------------------

@pytest.mark.parametrize("text, url", [
    ("redis://127.0.0.1:6380/3", "redis://127.0.0.1:6380/3"),
    ("redis://localhost", "redis://localhost:6379/0"),
    ("redis://[::1]:7000/", "redis://[::1]:7000/0"),
])
def test_broker_urls_are_read_into_one_canonical_form(text, url):
    assert parse_broker_url(text).url == url


@pytest.mark.parametrize("text, why", [
    ("http://127.0.0.1:6379/0", "only redis://"),
    ("redis://127.0.0.1:6379/16", "database must be"),
    ("redis://127.0.0.1:99999/0", "expected redis://"),
    ("redis://u:p@127.0.0.1/0", "credentials"),
    ("redis:///0", "no host"),
])
def test_bad_broker_urls_say_what_is_wrong(text, why):
    with pytest.raises(BrokerUrlError, match=why):
        parse_broker_url(text)


# -- the envelope ----------------------------------------------------------

def test_envelopes_round_trip_and_carry_their_origin():
    origin = new_origin()
    assert len(origin) == 16 and origin != new_origin()
    assert open_envelope(batch_envelope(origin, 'a["x","y"]')) == (origin, "a", 'a["x","y"]')
    assert open_envelope(message_envelope(origin, "a[not json")) == (origin, "m", "a[not json")
    assert frame_messages('a["x","y"]') == ["x", "y"]


@pytest.mark.parametrize("envelope", ["", "hello", "0123456789abcdefz", "0123456789ABCDEFmx",
                                      "0123456789abcdefa[\"x\"", "0123456789abcdefax]"])
def test_anything_else_on_the_channel_is_refused(envelope):
    with pytest.raises(EnvelopeError):
        open_envelope(envelope)


# -- the broadcast service and the relay -------------------------------------

class RecordingRelay:
    """Stands in for RedisRelay's interface towards the service (the
    Redis side is tested against a real redis-server in tests/server)."""

    def __init__(self):
        self.batches = []
        self.messages = []
        self.receiver = None

    def publish_batch(self, frame, count):
        self.batches.append((frame, count))

    def publish_message(self, message):
        self.messages.append(message)

    def set_receiver(self, receiver):
        self.receiver = receiver


class WireReceiver(FakeReceiver):
    wire_format = "test-wire"

    @staticmethod
    def encode_wire(frame):
        return frame.encode("utf-8")

    def write_prebuilt(self, wire):
        self.frames.append(wire.decode("utf-8"))
        return True


def joined(mode):
    app = make_broadcast()
    svc, timers = make_service(app, broadcast=mode)
    svc.prefix = "/broadcast"
    relay = RecordingRelay()
    join_domain(svc, relay)
    framed = []
    for i in range(3):
        s = svc.create("s%d" % i, info())
        r = WireReceiver()
        s.attach(r)
        framed.append(r)
    raw = svc.create_raw(info())
    raw_receiver = FakeReceiver()
    raw.attach(raw_receiver)
    return app, timers, relay, framed, raw_receiver


def test_fast_mode_publishes_once_per_flush_the_frame_its_sessions_got():
    app, timers, relay, framed, raw = joined(FAST)
    for m in ("1", "2", "3"):
        broadcast(app.members, m)
    assert relay.batches == []  # nothing before the iteration ends
    timers.end_iteration()
    assert relay.batches == [('a["1","2","3"]', 3)]
    assert framed[0].frames[-1] == 'a["1","2","3"]'
    assert raw.frames == ["1", "2", "3"]
    assert relay.messages == []


def test_fast_mode_relayed_frames_join_the_batch_and_are_not_published_again():
    app, timers, relay, framed, raw = joined(FAST)
    relay.receiver("a", 'a["r1","r2"]')
    broadcast(app.members, "own")
    relay.receiver("m", "r3")
    timers.end_iteration()
    # One frame for the session, in arrival order; the relayed inside as is.
    assert framed[1].frames[-1] == 'a["r1","r2","own","r3"]'
    assert raw.frames == ["r1", "r2", "own", "r3"]
    assert relay.batches == [('a["own"]', 1)]  # only this process's message


def test_naive_mode_publishes_each_message_and_delivers_relayed_ones_one_by_one():
    app, timers, relay, framed, raw = joined(NAIVE)
    broadcast(app.members, "own")
    relay.receiver("a", 'a["r1","r2"]')
    relay.receiver("m", "r3")
    timers.end_iteration()
    assert relay.messages == ["own"]
    assert relay.batches == []
    for r in framed:
        assert messages_of(r.frames) == ["own", "r1", "r2", "r3"]
    assert raw.frames == ["own", "r1", "r2", "r3"]


def test_a_relayed_frame_that_is_not_json_is_dropped_for_sessions_that_must_decode_it(caplog):
    app, timers, relay, framed, raw = joined(NAIVE)
    assert deliver_relayed(app.members, "a", "a[broken]") == 0
    assert "dropped a relayed frame" in caplog.text
    assert raw.frames == [] and all(messages_of(r.frames) == [] for r in framed)


def test_a_relayed_frame_reaches_each_service_in_its_own_mode_as_a_broadcast_does():
    """Relayed and local messages take one dispatch: a relayed frame for
    members of a naive and a fast service gives the naive one a frame per
    message and the fast one the frame's inside in its iteration's batch."""
    app = make_broadcast()
    rn, rf, end_iteration = naive_and_fast(app)
    assert deliver_relayed(app.members, "a", 'a["r1","r2"]') == 3
    broadcast(app.members, "own")
    end_iteration()
    assert rn.frames == ["o", 'a["r1"]', 'a["r2"]', 'a["own"]']
    assert rf.frames == ["o", 'a["r1","r2","own"]']


# -- what a worker tells its supervisor --------------------------------------

def test_a_worker_reports_its_url_and_fields_as_data_and_the_group_line_names_every_pid():
    fields = [("server", "sockbench-tornado"), ("codec", "a b%"), ("worker_pids", "11")]
    report = read_worker_line(listening_line("http://[::1]:8080", fields))
    assert report == Listening("http://[::1]:8080", fields)
    assert group_ready_line(report, [11, 12]) == (
        "READY http://[::1]:8080 server=sockbench-tornado codec=a%20b%25 worker_pids=11,12")


@pytest.mark.parametrize("line, report", [
    ("STANDBY", Standby()),
    ("READY http://127.0.0.1:1 worker_pids=1", None),  # never read as text
    ("LISTENING {not json", None),
    ('LISTENING {"url": "http://127.0.0.1:1"}', None),
    ("", None),
])
def test_anything_but_a_worker_report_is_ignored(line, report):
    assert read_worker_line(line) == report

"""Property-based fuzzing of the sans-I/O core (Hypothesis, seeded: the same
cases on every run): random and mutated input - xhr_send bodies as bytes,
JSON of every shape, invalid UTF-8, huge and deeply nested arrays,
framed-websocket messages, hixie-76 byte streams cut anywhere, JSONP
callbacks - always ends in a defined result: the messages, a SockJS error
(``BadPayload``, the session closed with ``c[3000,"Broken framing."]``) or
a refused callback; never another exception. Every usable codec."""
from __future__ import annotations

import json
from typing import List

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sockbench_server.protocol import frames, states, transports, wsframes
from sockbench_server.protocol.codecs import SERVER_ESCAPABLE, load_codec, survey
from fakes import FakeReceiver, info, make_service
from fuzz_inputs import random_edits

CODECS = survey()[0]
#: Generated cases per property (each case draws its codec too): seeded
#: and bounded, every run tries the same cases, and the file stays within
#: a few seconds of CPU on either interpreter (Hypothesis itself is the
#: slow part on PyPy).
CASES = 40
FUZZ = settings(max_examples=CASES, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
codecs = st.sampled_from(CODECS).map(load_codec)

#: Any JSON value, nested (the shapes a client may send instead of an array of strings).
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=5),
    max_leaves=20)
#: Strings as clients send them: any code point, lone surrogates included
#: (JSON can carry them as \\udXXX escapes).
any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=30)


@st.composite
def mutated(draw, base: st.SearchStrategy) -> bytes:
    """A valid body, then a few random edits: flip, drop, insert or cut bytes."""
    return random_edits(draw, draw(base), max_edits=4, max_insert=3)


valid_bodies = st.lists(any_text, max_size=6).map(lambda m: json.dumps(m).encode())
send_bodies = (st.binary(max_size=64) | mutated(valid_bodies)
               | json_values.map(lambda v: json.dumps(v).encode()))

HUGE_ARRAY = ("[" + '"x",' * 100_000 + '"x"]').encode()
DEEP_ARRAY = ("[" * 100_000 + "]" * 100_000).encode()
DEEP_OBJECT = ('{"a":' * 50_000 + "1" + "}" * 50_000).encode()


def decode_send_body(codec, body: bytes) -> List[str]:
    """What xhr_send / jsonp_send make of a body: the messages, or BadPayload."""
    return frames.decode_messages(codec, frames.decode_body(body))


#: Bodies every codec is tried with, beside the generated ones.
EDGE_BODIES = [HUGE_ARRAY, DEEP_ARRAY, DEEP_OBJECT, b'["\xff\xfe"]', b'["\\ud800"]',
               b'["a"]\x00', b"[" + b"9" * 5000 + b"]", b"", b"\xef\xbb\xbf[]"]


@pytest.mark.parametrize("codec_name", CODECS)
@pytest.mark.parametrize("body", EDGE_BODIES, ids=range(len(EDGE_BODIES)))
def test_edge_bodies_give_messages_or_a_sockjs_error(codec_name, body):
    check_send_body(load_codec(codec_name), body)


@FUZZ
@given(codec=codecs, body=send_bodies)
def test_any_send_body_gives_messages_or_a_sockjs_error(codec, body):
    check_send_body(codec, body)


def check_send_body(codec, body: bytes) -> None:
    try:
        messages = decode_send_body(codec, body)
    except frames.BadPayload as e:
        assert str(e) in ("Broken JSON encoding.", "Payload expected.")
        return
    assert type(messages) is list and all(type(m) is str for m in messages)


@FUZZ
@given(codec=codecs, value=json_values)
def test_json_of_every_shape_is_messages_only_when_an_array_of_strings(codec, value):
    text = json.dumps(value)
    is_messages = type(value) is list and all(type(m) is str for m in value)
    if is_messages:
        assert frames.decode_messages(codec, text) == value
    else:
        with pytest.raises(frames.PayloadExpected):
            frames.decode_messages(codec, text)


@FUZZ
@given(codec=codecs, messages=st.lists(any_text, max_size=8))
def test_every_message_survives_encode_and_decode_escaped_by_the_sockjs_rules(codec, messages):
    encoded = codec.encode_array(messages)
    assert not SERVER_ESCAPABLE.search(encoded), "a character SockJS escapes went out raw"
    assert json.loads(encoded) == messages
    # The same text sent back by a client decodes to the same messages.
    assert frames.decode_messages(codec, encoded) == messages


@FUZZ
@given(codec=codecs, text=st.text(max_size=40) | mutated(valid_bodies).map(
    lambda b: b.decode("utf-8", "replace")) | json_values.map(json.dumps))
@example(codec=load_codec("json"), text=DEEP_ARRAY.decode())
@example(codec=load_codec("json"), text=HUGE_ARRAY.decode())
def test_a_framed_websocket_message_is_delivered_or_closes_that_session_only(codec, text):
    svc, _ = make_service(codec=codec.name)
    session, receiver = svc.create(None, info()), FakeReceiver()
    session.attach(receiver)
    other, other_receiver = svc.create(None, info()), FakeReceiver()
    other.attach(other_receiver)
    try:
        expected = frames.decode_ws_messages(codec, text)
    except frames.BadPayload:
        expected = None
    session.receive_ws_text(text)
    got = [e[1] for e in svc.connection_class.events if e[0] == "message"]
    if expected is None:
        assert receiver.closed == (3000, "Broken framing.")
        assert session.state == states.CLOSED and session not in svc.live
    else:
        assert got == expected and session.state == states.OPEN
    assert other.state == states.OPEN and other_receiver.closed is None


@FUZZ
@given(texts=st.lists(st.text(max_size=20), max_size=5), junk=st.binary(max_size=30),
       cuts=st.lists(st.integers(0, 200), max_size=6))
def test_a_hixie76_stream_cut_anywhere_gives_its_messages_or_ends_the_connection(texts, junk,
                                                                                cuts):
    stream = b"".join(wsframes.hixie76_frame(t) for t in texts)
    decoder = wsframes.Hixie76Decoder(max_message=64)
    got: List[str] = []
    data = stream + junk
    points = sorted(set([0, len(data)] + [c for c in cuts if c < len(data)]))
    for start, end in zip(points, points[1:]):
        got += decoder.feed(data[start:end])
    assert all(type(m) is str for m in got)
    # The well-formed frames come first and whole, in order; junk after them
    # may add messages or close the connection, never change those.
    fitting = [t for t in texts if len(t.encode()) <= 64]
    if fitting == texts:
        assert got[:len(texts)] == texts or decoder.closed


@FUZZ
@given(callback=st.text(max_size=40) | st.none())
@example(callback="a" * 33)
@example(callback="</script>")
def test_a_jsonp_callback_is_taken_only_when_safe(callback):
    try:
        name = transports.check_callback(callback)
    except transports.CallbackError:
        return
    assert name == callback and len(name) <= transports.MAX_CALLBACK_LENGTH
    assert all(c.isascii() and (c.isalnum() or c in "-_.") for c in name)

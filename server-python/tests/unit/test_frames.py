from __future__ import annotations

import pytest

from sockbench_server.protocol import frames
from sockbench_server.protocol.codecs import load_codec

J = load_codec("json")


def test_frames():
    assert frames.OPEN == "o"
    assert frames.HEARTBEAT == "h"
    assert frames.message_frame(['"a"']) == 'a["a"]'
    assert frames.message_frame(['"a"', '"b"']) == 'a["a","b"]'
    assert frames.messages_frame(J, ["x", "y\u2028"]) == 'a["x","y\\u2028"]'
    assert frames.close_frame(J, 3000, "Go away!") == 'c[3000,"Go away!"]'
    assert frames.close_frame(J, 2010, "Another connection still open") == \
        'c[2010,"Another connection still open"]'


def test_decode_messages_accepts_arrays_of_strings():
    assert frames.decode_messages(J, '["a","b"]') == ["a", "b"]
    assert frames.decode_messages(J, "[]") == []
    assert frames.decode_messages(J, ' ["\\u0000"] ') == ["\x00"]


@pytest.mark.parametrize("text,error", [
    ("", frames.PayloadExpected),
    ('["x', frames.BrokenJSON),
    ('"a"', frames.PayloadExpected),      # HTTP sends need an array
    ("{}", frames.PayloadExpected),
    ("[1]", frames.PayloadExpected),
    ('["a", null]', frames.PayloadExpected),
    ('[["a"]]', frames.PayloadExpected),
    ("null", frames.PayloadExpected),
    ("[" * 100000, frames.BrokenJSON),    # recursion, not a crash
])
def test_decode_messages_errors(text, error):
    with pytest.raises(error) as e:
        frames.decode_messages(J, text)
    assert str(e.value) in ("Payload expected.", "Broken JSON encoding.")


def test_decode_ws_messages():
    assert frames.decode_ws_messages(J, "") == []
    assert frames.decode_ws_messages(J, "[]") == []
    assert frames.decode_ws_messages(J, '"one"') == ["one"]
    assert frames.decode_ws_messages(J, '["a","b"]') == ["a", "b"]
    for bad in ('["a', "1", "{}", "[1]", "true"):
        with pytest.raises(frames.BadPayload):
            frames.decode_ws_messages(J, bad)


def test_decode_body():
    assert frames.decode_body("ż".encode()) == "ż"
    with pytest.raises(frames.BrokenJSON):
        frames.decode_body(b"\xff\xfe")

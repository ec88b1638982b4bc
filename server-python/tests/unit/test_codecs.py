"""Codec wrappers and the SockJS escaping rules, for every codec installed."""
from __future__ import annotations

import importlib.util
import json

import pytest

from sockbench_server.protocol import codecs

INSTALLED = [n for n in codecs.CODEC_NAMES
             if n == "json" or importlib.util.find_spec(n) is not None]


@pytest.fixture(params=INSTALLED)
def codec(request):
    return codecs.select_codec(request.param)


def test_self_test_passes(codec):
    assert codecs.self_test(codec) is None


def test_server_escapable_characters_leave_as_lowercase_escapes(codec):
    raw, expected = codecs.server_killer_string()
    assert codec.encode_str(raw) == expected
    assert "\\u2028" in expected and "\\ufff0" in expected


def test_escapes_match_json_stringify(codec):
    assert codec.encode_str("a\"b\\c\n\r\t\x00\x1f/") == '"a\\"b\\\\c\\n\\r\\t\\u0000\\u001f/"'


def test_round_trips_what_clients_escape(codec):
    raw, escaped = codecs.client_killer_string()
    assert codec.decode("[" + escaped + "]") == [raw]
    assert json.loads(codec.encode_str(raw)) == raw


def test_lone_surrogates_round_trip(codec):
    # Browsers can send them; they must come back escaped, not crash.
    for s in ["\ud800", "a\udfffb", "\udc00\udbffx"]:
        text = codec.encode_str(s)
        assert text.isascii() or not codecs.SERVER_ESCAPABLE.search(text)
        assert codec.decode(text) == s


def test_non_ascii_text_round_trips(codec):
    s = "zażółć gęślą jaźń ☃ 𝄞"
    assert codec.decode(codec.encode_str(s)) == s


@pytest.mark.parametrize("broken", ['["x', '["a"]x', "[1,]", "", "[", "{"])
def test_rejects_malformed_json(codec, broken):
    with pytest.raises(ValueError):
        codec.decode(broken)


def test_encode_array(codec):
    assert codec.encode_array(["a", "b\n"]) == '["a","b\\n"]'
    assert codec.encode_array([]) == "[]"


def test_sockjs_escape_only_touches_the_server_set():
    assert codecs.sockjs_escape('"plain"') == '"plain"'
    assert codecs.sockjs_escape('"é\u2028\ufff0"') == '"é\\u2028\\ufff0"'


def test_unknown_codec_is_refused():
    with pytest.raises(codecs.CodecError, match="unknown codec"):
        codecs.select_codec("yaml")


def test_missing_codec_is_refused_with_reason(monkeypatch):
    def boom():
        raise ImportError("no module")

    monkeypatch.setitem(codecs._FACTORIES, "ujson", boom)
    with pytest.raises(codecs.CodecError, match="not installed|not available"):
        codecs.select_codec("ujson")


def test_codec_breaking_the_rules_is_refused(monkeypatch):
    # A library that emits raw U+2028 would break JavaScript clients.
    bad = codecs.Codec(name="json", version="test",
                       encode_str=lambda s: json.dumps(s, ensure_ascii=False), decode=json.loads)
    monkeypatch.setitem(codecs._FACTORIES, "json", lambda: bad)
    with pytest.raises(codecs.CodecError) as e:
        codecs.select_codec("json")
    assert "refused" in str(e.value) and "escape" in str(e.value)
    assert "\n" not in str(e.value)


def test_lenient_decoder_is_refused(monkeypatch):
    lenient = codecs.Codec(name="json", version="test", encode_str=codecs._std_encode_str,
                           decode=lambda t: json.loads(t.rstrip("x")))
    monkeypatch.setitem(codecs._FACTORIES, "json", lambda: lenient)
    with pytest.raises(codecs.CodecError, match="malformed"):
        codecs.select_codec("json")


def test_survey_lists_every_codec_once():
    usable, refused = codecs.survey()
    assert "json" in usable
    assert sorted(usable + list(refused)) == sorted(codecs.CODEC_NAMES)
    for name, reason in refused.items():
        assert name in reason


@pytest.mark.skipif(codecs.runtime_name() != "pypy", reason="orjson refusal is PyPy-specific")
def test_orjson_refused_on_pypy_with_reason():
    with pytest.raises(codecs.CodecError, match="PyPy"):
        codecs.select_codec("orjson")

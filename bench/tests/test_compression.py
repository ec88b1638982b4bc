"""COMPRESSION= (bench/compression.py, docs/compression.md): which runs are refused before anything
starts, the client flag, the result's file name."""

import pytest

import compression
from matrix import registry, select


def _entries(names):
    return select(names)


def test_no_compression_is_never_refused_and_passes_no_flag():
    assert compression.refusal("none", _entries("all"), "xhr-streaming", byo_server=False) is None
    assert compression.client_args("none") == []


def test_servers_with_the_knob_run_it_and_the_client_is_asked_to_offer_it():
    can = _entries("pypy-fast,cpython-naive,node-fast,node26-naive")
    assert compression.refusal("permessage-deflate", can, "websocket", byo_server=False) is None
    assert compression.client_args("permessage-deflate") == ["--compression", "permessage-deflate"]


def test_a_server_that_cannot_is_named_in_one_line():
    why = compression.refusal("permessage-deflate", _entries("pypy-fast,sockjs-tornado-cpython,limit-naive"),
                              "websocket", byo_server=False)
    assert why.startswith("COMPRESSION=permessage-deflate: sockjs-tornado-cpython, limit-naive cannot compress")
    assert "\n" not in why


def test_every_entry_without_the_knob_says_why_in_its_comment():
    # docs/compression.md lists them; the registry is where a reader of one entry looks.
    for e in registry().entries:
        if not e.has_compression:
            assert e.name in _comments_naming_compression(), f"{e.name}: no $comment says why it cannot compress"


def _comments_naming_compression():
    import json
    from sockbench_contract.registry import REGISTRY_PATH
    with open(REGISTRY_PATH, encoding="utf-8") as f:
        doc = json.load(f)
    return {s["name"] for s in doc["servers"] if "compress" in s.get("$comment", "")}


@pytest.mark.parametrize("value, transports, why", [
    ("gzip", "websocket", "COMPRESSION=gzip: one of none, permessage-deflate"),
    ("permessage-deflate", "xhr-streaming", "compresses websocket sessions only"),
])
def test_values_and_transports_that_cannot_be(value, transports, why):
    assert why in compression.refusal(value, _entries("pypy-fast"), transports, byo_server=False)


def test_a_server_run_by_hand_is_left_to_the_client(tmp_path):
    # The runner does not start it: the client's session open fails if it does not accept the offer.
    assert compression.refusal("permessage-deflate", (), "websocket", byo_server=True) is None


def test_the_file_tag():
    assert compression.file_tag({"parameters": {}}) == ""
    assert compression.file_tag({"parameters": {"compression": "none"}}) == ""
    assert compression.file_tag({"parameters": {"compression": "permessage-deflate"}}) == "deflate"

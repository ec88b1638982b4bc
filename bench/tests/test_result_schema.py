"""results/schema.json v5: the sessions profile's fields (v4) and churn's (v5) accepted with their units'
ranges, nonsense refused, and every older file under results/ still valid."""

import copy
import json
import os
import subprocess

import pytest

from results_io import load_result, readable_schemas, schema_errors
from servers import ROOT
from sessions_docs import churn_doc, churn_record, client_doc



def _committed_results():
    """Every committed result file under results/ (the historic chart data and scale-out summaries carry
    no result schema id and are not result files)."""
    paths = subprocess.run(["git", "-C", ROOT, "ls-files", "results/*.json"], capture_output=True, text=True,
                           check=True).stdout.split()
    out = []
    for rel in paths:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            doc = json.load(f)
        if isinstance(doc, dict) and str(doc.get("schema", "")).startswith("sockbench.result/"):
            out.append(os.path.join(ROOT, rel))
    return sorted(out)


EVERY_RESULT = _committed_results()


def test_v6_is_readable_beside_the_older_versions():
    assert len(EVERY_RESULT) > 30  # the committed reference sets, v1 to v5
    assert set(readable_schemas()) == {f"sockbench.result/{v}" for v in (1, 2, 3, 4, 5, 6)}


@pytest.mark.parametrize("path", EVERY_RESULT, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_file_under_results_still_validates(path):
    assert schema_errors(load_result(path)) == []


def test_a_sessions_document_validates():
    assert schema_errors(client_doc([25, 2000])) == []


def test_every_new_field_is_optional():
    doc = client_doc([25])
    for key in ("all_copies", "verdict", "idle_hold_s", "connect_rate_per_s"):
        del doc["parameters"][key]
    for key in ("connect", "idle", "fanout_saturation"):
        del doc["levels"][0][key]
    for point in doc["levels"][0]["points"]:
        del point["fanout_ms"], point["completion_ms"]
    assert schema_errors(doc) == []


def _with(change):
    doc = client_doc([25])
    change(doc)
    return schema_errors(doc)


def _level(doc):
    return doc["levels"][0]


@pytest.mark.parametrize("change", [
    lambda d: _level(d).update(workers=2, agents=64),
    lambda d: _level(d).update(fanout_saturation=None),
    lambda d: _level(d)["connect"].update(rate_per_s=None, achieved_per_s=None,
                                          failures={"Too many open files": 10, "handshake: HTTP 503": 1}),
    lambda d: _level(d)["idle"].update(server_bytes_per_session=-120.5, server_cpu_pct=None, server_rss_bytes=None),
    lambda d: _level(d)["points"][0]["completion_ms"].update(count=0, incomplete=7, p50=None, p90=None, p99=None,
                                                             max=None),
    lambda d: d["parameters"].update(all_copies=False, verdict="own_mean", idle_hold_s=0, connect_rate_per_s=0),
], ids=["workers-agents", "no-ok-point", "unpaced-with-failures", "rss-shrank-or-unread", "no-complete-message",
        "own-copy-profile"])
def test_the_new_fields_accept_their_documented_range(change):
    assert _with(change) == []


@pytest.mark.parametrize("change, where", [
    (lambda d: _level(d).update(workers=0), "levels/0/workers"),
    (lambda d: _level(d).update(agents=65), "levels/0/agents"),
    (lambda d: d["parameters"].update(verdict="p99"), "parameters/verdict"),
    (lambda d: d["parameters"].update(idle_hold_s=-1), "parameters/idle_hold_s"),
    (lambda d: d["parameters"].update(connect_rate_per_s=-5), "parameters/connect_rate_per_s"),
    (lambda d: d["parameters"].update(all_copies="yes"), "parameters/all_copies"),
    (lambda d: _level(d)["connect"]["failures"].update(timeout=0), "levels/0/connect/failures/timeout"),
    (lambda d: _level(d)["connect"].update(rate_per_s=0), "levels/0/connect/rate_per_s"),
    (lambda d: _level(d)["idle"].pop("heartbeats"), "levels/0/idle"),
    (lambda d: _level(d)["idle"].update(connections_lost=-1), "levels/0/idle/connections_lost"),
    (lambda d: _level(d).update(fanout_saturation={"copies_per_s": 10.0}), "levels/0/fanout_saturation"),
    (lambda d: _level(d)["points"][0]["completion_ms"].pop("incomplete"), "levels/0/points/0/completion_ms"),
    (lambda d: _level(d)["points"][0]["fanout_ms"].update(p99=-1.0), "levels/0/points/0/fanout_ms/p99"),
], ids=["workers-0", "agents-65", "unknown-verdict", "negative-hold", "negative-connect-rate", "all-copies-text",
        "zero-failures", "paced-at-0", "idle-without-heartbeats", "negative-lost", "fanout-without-rate",
        "completion-without-incomplete", "negative-fanout-p99"])
def test_the_new_fields_refuse_what_their_units_rule_out(change, where):
    errors = _with(change)
    assert errors and all(e.startswith(where) for e in errors), errors


def test_an_older_document_with_a_v4_field_still_validates_as_v3_and_v4_and_v5_ids_are_accepted():
    doc = client_doc([25])
    for version in ("sockbench.result/3", "sockbench.result/4", "sockbench.result/5"):
        assert schema_errors(dict(copy.deepcopy(doc), schema=version)) == []
    assert schema_errors(dict(doc, schema="sockbench.result/7"))[0].startswith("schema")


def _mixed_doc():
    """A v6 document of a 80/20 websocket/xhr-streaming mix: each point split in two transports."""
    doc = client_doc([25])
    doc["schema"] = "sockbench.result/6"
    doc["parameters"]["transports"] = "websocket:4,xhr-streaming:1"
    for point in doc["levels"][0]["points"]:
        parts = []
        for name, sessions in (("websocket", 20), ("xhr-streaming", 5)):
            expected = point["sent"] * sessions
            parts.append({"transport": name, "sessions": sessions, "sent": point["sent"] * sessions // 25,
                          "received": expected, "expected_received": expected, "lost": 0, "connection_errors": 0,
                          "delivered_pct": 100.0, "rtt_ms": point["rtt_ms"], "state": point["state"]})
        point["transports"] = parts
    return doc


def test_a_v6_document_needs_its_transports_and_a_mix_validates():
    assert schema_errors(_mixed_doc()) == []
    doc = _mixed_doc()
    del doc["parameters"]["transports"]
    assert schema_errors(doc)[0].startswith("parameters"), schema_errors(doc)
    # The same document without the field is a valid v5 one: older files stay valid.
    assert schema_errors(dict(doc, schema="sockbench.result/5")) == []


@pytest.mark.parametrize("change, where", [
    (lambda d: d["parameters"].update(transports="websocket:80,smoke-signals:20"), "parameters/transports"),
    (lambda d: d["parameters"].update(transports="websocket:80,xhr-streaming"), "parameters/transports"),
    (lambda d: d["levels"][0]["points"][0]["transports"][1].update(transport="carrier-pigeon"),
     "levels/0/points/0/transports/1/transport"),
    (lambda d: d["levels"][0]["points"][0]["transports"][0].pop("lost"), "levels/0/points/0/transports/0"),
    (lambda d: d["levels"][0]["points"][0].update(transports=d["levels"][0]["points"][0]["transports"][:1]),
     "levels/0/points/0/transports"),
], ids=["unknown-transport", "unweighted-entry-in-a-mix", "unknown-part", "part-without-lost", "a-mix-of-one"])
def test_the_transport_fields_refuse_what_the_mix_rules_out(change, where):
    doc = _mixed_doc()
    change(doc)
    errors = schema_errors(doc)
    assert errors and all(e.startswith(where) for e in errors), errors


def test_a_churn_document_validates():
    assert schema_errors(churn_doc([25, 2000], pct=5.0)) == []


def _churn(doc):
    return doc["levels"][0]["points"][0]["churn"]


def _with_churn(change):
    doc = churn_doc([25])
    change(doc)
    return schema_errors(doc)


@pytest.mark.parametrize("change", [
    lambda d: d["parameters"].update(churn_pct=50),
    lambda d: d["parameters"].update(churn_pct=0),
    lambda d: d["parameters"].update(churn_pct=0.5),
    lambda d: d["levels"][0]["points"][0].update(churn=churn_record(0, 0.0)),
    lambda d: _churn(d)["failures"].update({"Cannot assign requested address": 3, "handshake: HTTP 503": 1}),
    lambda d: [p.pop("churn") for p in d["levels"][0]["points"]],
    lambda d: d["levels"][0]["idle"].update(lost_reasons={"EOF": 841, "SockJS close 3000 Go away!": 2}),
], ids=["largest-churn", "no-churn", "fractional-churn", "empty-pool-nothing-timed", "failures-by-reason",
        "points-without-churn", "idle-lost-by-reason"])
def test_the_churn_fields_accept_their_documented_range(change):
    assert _with_churn(change) == []


@pytest.mark.parametrize("change, where", [
    (lambda d: d["parameters"].update(churn_pct=50.5), "parameters/churn_pct"),
    (lambda d: d["parameters"].update(churn_pct=-1), "parameters/churn_pct"),
    (lambda d: d["parameters"].update(churn_pct="5%"), "parameters/churn_pct"),
    (lambda d: _churn(d).pop("pool"), "levels/0/points/0/churn"),
    (lambda d: _churn(d).update(closes=-1), "levels/0/points/0/churn/closes"),
    (lambda d: _churn(d).update(reconnects=1.5), "levels/0/points/0/churn/reconnects"),
    (lambda d: _churn(d).update(connects_per_s=-0.1), "levels/0/points/0/churn/connects_per_s"),
    (lambda d: _churn(d)["failures"].update(timeout=0), "levels/0/points/0/churn/failures/timeout"),
    (lambda d: _churn(d)["reconnect_ms"].pop("p99"), "levels/0/points/0/churn/reconnect_ms"),
    (lambda d: _churn(d)["reconnect_ms"].update(p50=-2.0), "levels/0/points/0/churn/reconnect_ms/p50"),
    (lambda d: d["levels"][0]["idle"].update(lost_reasons={"EOF": 0}), "levels/0/idle/lost_reasons/EOF"),
], ids=["churn-above-50", "negative-churn", "churn-as-text", "churn-without-pool", "negative-closes",
        "fractional-reconnects", "negative-connect-rate", "zero-failures", "reconnect-without-p99",
        "negative-reconnect-time", "idle-lost-zero-times"])
def test_the_churn_fields_refuse_what_their_units_rule_out(change, where):
    errors = _with_churn(change)
    assert errors and all(e.startswith(where) for e in errors), errors


def _slow_record(sessions=2, lost=1):
    latency = {"count": 3, "mean": 900.0, "stddev": 10.0, "min": 880.0, "p50": 900.0, "p90": 910.0, "p99": 912.0,
               "p999": 912.0, "max": 912.0}
    return {"sessions": sessions, "received": 3, "expected_received": 40, "lost_sessions": lost,
            "cut_off_reasons": {"Connection reset by peer": lost} if lost else {}, "fanout_ms": latency}


def _with_slow(change):
    doc = churn_doc([25])
    doc["parameters"].pop("churn_pct", None)
    for p in doc["levels"][0]["points"]:
        p.pop("churn", None)
        p["slow_clients"] = _slow_record()
    doc["parameters"]["slow_clients"] = {"pct": 10, "kib_per_s": 64}
    change(doc)
    return schema_errors(doc)


def _slow(doc):
    return doc["levels"][0]["points"][0]["slow_clients"]


@pytest.mark.parametrize("change", [
    lambda d: None,
    lambda d: d["parameters"]["slow_clients"].update(pct=50, kib_per_s=1_000_000),
    lambda d: d["parameters"]["slow_clients"].update(pct=0.01, kib_per_s=1),
    lambda d: d["levels"][0]["points"][0].update(slow_clients=_slow_record(0, 0)),
    lambda d: [d["parameters"].pop("slow_clients")] + [p.pop("slow_clients") for p in d["levels"][0]["points"]],
], ids=["slow-readers", "largest", "smallest", "none-left-none-lost", "no-slow-readers"])
def test_the_slow_reader_fields_accept_their_documented_range(change):
    assert _with_slow(change) == []


@pytest.mark.parametrize("change, where", [
    (lambda d: d["parameters"]["slow_clients"].update(pct=0), "parameters/slow_clients/pct"),
    (lambda d: d["parameters"]["slow_clients"].update(pct=50.5), "parameters/slow_clients/pct"),
    (lambda d: d["parameters"]["slow_clients"].update(kib_per_s=0), "parameters/slow_clients/kib_per_s"),
    (lambda d: d["parameters"]["slow_clients"].update(kib_per_s=1.5), "parameters/slow_clients/kib_per_s"),
    (lambda d: d["parameters"]["slow_clients"].pop("kib_per_s"), "parameters/slow_clients"),
    (lambda d: _slow(d).pop("lost_sessions"), "levels/0/points/0/slow_clients"),
    (lambda d: _slow(d).update(sessions=-1), "levels/0/points/0/slow_clients/sessions"),
    (lambda d: _slow(d)["cut_off_reasons"].update(EOF=0), "levels/0/points/0/slow_clients/cut_off_reasons/EOF"),
], ids=["no-share", "share-above-50", "no-rate", "fractional-rate", "rate-missing", "lost-missing",
        "negative-sessions", "zero-reason"])
def test_the_slow_reader_fields_refuse_what_their_units_rule_out(change, where):
    errors = _with_slow(change)
    assert errors and all(e.startswith(where) for e in errors), errors

"""Result files: old ones still read, the name is built in one place, writes are whole."""

import datetime
import glob
import json
import os

import pytest

from results_io import load_result, readable_schemas, result_file_path, result_paths, schema_errors, write_result
from servers import ROOT

OLD_FILES = sorted(glob.glob(os.path.join(ROOT, "results", "reference", "*.json"))
                   + glob.glob(os.path.join(ROOT, "site", "test", "fixtures", "20*.json")))


def test_both_schema_versions_are_readable():
    assert {"sockbench.result/1", "sockbench.result/2"} <= set(readable_schemas())


@pytest.mark.parametrize("path", OLD_FILES, ids=os.path.basename)
def test_committed_files_still_read_and_validate(path):
    doc = load_result(path)
    assert schema_errors(doc) == []


def test_a_folders_result_paths_leave_out_the_schema_and_the_scale_out_summaries(tmp_path):
    for name in ("b.json", "a.json", "schema.json", "summary.json", "20261126T041055Z.summary.json", "notes.md"):
        (tmp_path / name).write_text("{}")
    assert [os.path.basename(p) for p in result_paths(str(tmp_path))] == ["a.json", "b.json"]


@pytest.mark.parametrize("folder", sorted(glob.glob(os.path.join(ROOT, "results", "scaleout-simulated", "*", ""))),
                         ids=lambda f: os.path.basename(os.path.dirname(f)))
def test_every_result_of_a_committed_scale_out_folder_reads(folder):
    paths = result_paths(folder)
    assert len(paths) == 3 and all(load_result(p)["server"]["cpu_quota"] for p in paths)


def test_other_documents_are_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"schema": "something/9"}))
    with pytest.raises(ValueError, match="schema must be one of"):
        load_result(str(path))


def test_file_name_from_the_server_section_never_overwrites(tmp_path):
    when = datetime.datetime(2026, 11, 24, tzinfo=datetime.timezone.utc)
    doc = {"server": {"name": "sockjs-node", "runtime": "node", "codec": None, "mode": "naive"}}
    first = result_file_path(str(tmp_path), doc, when)
    assert os.path.basename(first) == "2026-11-24-sockjs-node-node-na-naive.json"
    write_result(first, {"a": 1})
    second = result_file_path(str(tmp_path), doc, when)
    assert os.path.basename(second) == "2026-11-24-sockjs-node-node-na-naive-2.json"
    assert json.loads(open(first, encoding="utf-8").read()) == {"a": 1}
    assert not os.path.exists(first + ".tmp")


@pytest.mark.parametrize("workers, broker, suffix", [
    (None, None, "fast.json"), (1, None, "fast.json"), (2, "private", "fast-w2.json"), (16, "private", "fast-w16.json"),
    (1, "redis://127.0.0.1:6379/0", "fast-w1-broker.json")])
def test_file_name_says_how_many_workers_and_whether_a_broker_relayed(tmp_path, workers, broker, suffix):
    doc = {"server": {"name": "sockjs-node", "runtime": "node", "codec": None, "mode": "fast"}}
    if workers is not None:
        doc["server"]["workers"] = workers
    if broker is not None:
        doc["server"]["broker"] = {"url": broker, "private": broker == "private"}
    when = datetime.datetime(2026, 11, 24, tzinfo=datetime.timezone.utc)
    assert result_file_path(str(tmp_path), doc, when) == str(tmp_path / f"2026-11-24-sockjs-node-node-na-{suffix}")


@pytest.mark.parametrize("transports, suffix", [
    (None, "fast.json"), ("websocket", "fast.json"), ("xhr-streaming", "fast-xhr-streaming.json"),
    ("websocket:16,xhr-streaming:2,eventsource:1,xhr-polling:1",
     "fast-websocket16-xhr-streaming2-eventsource1-xhr-polling1.json")])
def test_file_name_names_the_transports_when_not_plain_websocket(tmp_path, transports, suffix):
    doc = {"server": {"name": "sockjs-node", "runtime": "node", "codec": None, "mode": "fast"}, "parameters": {}}
    if transports is not None:
        doc["parameters"]["transports"] = transports
    when = datetime.datetime(2026, 11, 24, tzinfo=datetime.timezone.utc)
    assert result_file_path(str(tmp_path), doc, when) == str(tmp_path / f"2026-11-24-sockjs-node-node-na-{suffix}")


@pytest.mark.parametrize("compression, suffix", [
    (None, "fast.json"), ("none", "fast.json"), ("permessage-deflate", "fast-deflate.json")])
def test_file_name_says_deflate_when_the_websockets_were_compressed(tmp_path, compression, suffix):
    doc = {"server": {"name": "sockjs-node", "runtime": "node", "codec": None, "mode": "fast"}, "parameters": {}}
    if compression is not None:
        doc["parameters"]["compression"] = compression
    when = datetime.datetime(2026, 11, 24, tzinfo=datetime.timezone.utc)
    assert result_file_path(str(tmp_path), doc, when) == str(tmp_path / f"2026-11-24-sockjs-node-node-na-{suffix}")

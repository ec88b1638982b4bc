"""A sessions repetition's level groups become one result document and one host record, valid against v4."""

import pytest

from group_merge import group_note, merge_group_docs, merge_group_records
from merge import merge_repetitions
from results_io import schema_errors
from sessions import LevelGroup
from sessions_docs import client_doc, host_record

GROUPS = [LevelGroup((25, 100), 1, 1), LevelGroup((2000,), 3, 3)]


def _groups_docs():
    first, second = client_doc([25, 100]), client_doc([2000])
    first.update(started_at="2026-11-26T01:00:00Z", finished_at="2026-11-26T01:05:00Z", duration_s=300.0)
    second.update(started_at="2026-11-26T01:06:00Z", finished_at="2026-11-26T01:10:00Z", duration_s=240.0)
    second["warnings"] = ["point 2000/40: client-bound"]
    return [first, second]


def test_the_groups_levels_become_one_document_whose_levels_say_their_workers_and_agents():
    merged = merge_group_docs(GROUPS, _groups_docs())
    assert [(lv["concurrency"], lv["workers"], lv["agents"]) for lv in merged["levels"]] == [
        (25, 1, 1), (100, 1, 1), (2000, 3, 3)]
    assert merged["parameters"]["levels"] == [25, 100, 2000]
    assert (merged["started_at"], merged["finished_at"], merged["duration_s"]) == (
        "2026-11-26T01:00:00Z", "2026-11-26T01:10:00Z", 540.0)
    # What the runner chose is said once; each group's warnings keep their levels.
    assert merged["warnings"][0] == group_note(GROUPS)
    assert "25,100 on 1 server process and 1 client process; 2000 on 3 server workers and 3 client agents" \
        in merged["warnings"][0]
    assert "levels 2000: point 2000/40: client-bound" in merged["warnings"]
    assert all("idle" in lv and "fanout_saturation" in lv for lv in merged["levels"])


def test_the_merged_document_validates_against_the_v4_schema_with_its_host_records():
    records = [host_record("2026-11-26T01:00:00Z", "2026-11-26T01:05:00Z", 300.0),
               host_record("2026-11-26T01:06:00Z", "2026-11-26T01:10:00Z", 240.0, workers=3)]
    doc = merge_group_docs(GROUPS, _groups_docs())
    record = merge_group_records(GROUPS, records)
    merged = merge_repetitions([doc], [record])
    assert schema_errors(merged) == []
    run = merged["runs"][0]
    assert (run["wall_s"], run["server_cpu_s"], run["client_cpu_s"]) == (540.0, 20.0, 40.0)
    assert [(g["levels"], g["workers"], g["agents"]) for g in run["groups"]] == [([25, 100], 1, 1), ([2000], 3, 3)]
    assert "workers" not in run  # per-process figures belong to one server start: they stay in its group


def test_groups_of_different_profiles_are_not_merged():
    docs = _groups_docs()
    docs[1]["parameters"]["idle_hold_s"] = 2
    with pytest.raises(ValueError, match="level group 2 differs from group 1 in parameters: idle_hold_s"):
        merge_group_docs(GROUPS, docs)


def test_a_level_its_group_did_not_run_is_named():
    docs = _groups_docs()
    docs[0]["levels"] = docs[0]["levels"][:1]
    merged = merge_group_docs(GROUPS, docs)
    assert "levels 100: missing from their group's client run" in merged["warnings"]

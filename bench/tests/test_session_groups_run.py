"""One repetition run as two real level groups, as a sessions run above 19,000 sessions does it: the
first group on one server process and one client process, the second on 2 workers (a private broker)
and 2 agents (a private bus); their documents and host records merged into the repetition's one.
The groups are given here, small, since the levels that need them hold more sessions than a test can."""

import os

from cpus import available_cpus
from merge import merge_repetitions
from results_io import load_result, schema_errors
from bench_cli import parse_args
from run_bench import client_profiles_for
from session_groups import measure_groups
from sessions import LevelGroup
from short_sweeps import PLUMBING_SWEEP



def test_two_level_groups_become_one_repetition_with_each_levels_processes(tmp_path):
    config = parse_args(["--server", "cpython", "--profile", "sessions", "--port", "0",
                         "--server-cpu", str(available_cpus()[0]), "--client-args", PLUMBING_SWEEP,
                         "--no-server-warmup", "--out-dir", str(tmp_path)])
    _, _, warmup = client_profiles_for(config, True, usage_error=AssertionError)
    groups = [LevelGroup((40,), 1, 1), LevelGroup((60,), 2, 2)]
    out_path = str(tmp_path / "cpython-fast-1.json")
    record, _ = measure_groups(groups, config, config.variants[0], out_path, str(tmp_path / "cpython-fast.server.log"),
                               warmup=warmup, log=lambda _: None)

    doc = load_result(out_path)
    assert [(lv["concurrency"], lv["workers"], lv["agents"]) for lv in doc["levels"]] == [(40, 1, 1), (60, 2, 2)]
    assert doc["parameters"]["levels"] == [40, 60]
    for level in doc["levels"]:
        assert level["connected"] == level["concurrency"] and level["idle"]["server_rss_bytes"] > 0
    # The second group's idle record sums the supervisor and both workers, and the client and both agents.
    assert doc["levels"][1]["idle"]["server_rss_bytes"] > doc["levels"][0]["idle"]["server_rss_bytes"]
    assert doc["warnings"][0].startswith("sessions profile: levels 40 on 1 server process and 1 client process; "
                                         "60 on 2 server workers and 2 client agents")
    first, second = record["groups"]
    assert (first["levels"], first["workers"], first["agents"]) == ([40], 1, 1)
    assert (second["levels"], second["workers"], second["agents"]) == ([60], 2, 2)
    assert second["broker"]["private"] and second["client_agents"]["count"] == 2
    assert [p["role"] for p in second["server_processes"]] == ["supervisor", "worker", "worker"]
    assert record["wall_s"] == round(first["wall_s"] + second["wall_s"], 3)
    # The group files are gone once merged; each server start kept its own log.
    assert not [p for p in os.listdir(tmp_path) if "-group" in p and p.endswith(".json")]
    assert os.path.exists(tmp_path / "cpython-fast.server.log")
    assert os.path.exists(tmp_path / "cpython-fast.group2.server.log")
    assert schema_errors(merge_repetitions([doc], [record])) == []

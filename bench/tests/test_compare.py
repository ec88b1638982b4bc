"""make compare: medians, ratio, and the overlap rule that decides "within noise"."""

import os
import pytest

from compare import compare_table, default_base, main, matrix_table, pick_base
from level_ranges import level_range, run_name, verdict
from factories import doc, level
from merge import merge_repetitions


def rng(lo, med, hi, runs=3):
    return {"min": lo, "median": med, "max": hi, "runs": runs, "client_bound": False}


@pytest.mark.parametrize("a,b,expected", [
    (rng(90, 100, 110), rng(105, 120, 130), "within noise"),     # overlap
    (rng(90, 100, 110), rng(110, 120, 130), "within noise"),     # touching ends count as overlap
    (rng(90, 100, 110), rng(111, 120, 130), "B higher"),
    (rng(90, 100, 110), rng(50, 60, 89), "B lower"),
    (rng(100, 100, 100, runs=1), rng(200, 200, 200), "single run: noise unknown"),
    (rng(90, 100, 110), None, "—"),
])
def test_difference_only_when_ranges_do_not_overlap(a, b, expected):
    assert verdict(a, b) == expected


def test_range_of_an_old_single_run_file():
    r = level_range(level(25, 300.0))
    assert (r["median"], r["min"], r["max"], r["runs"]) == (300.0, 300.0, 300.0, 1)


def merged(values, mode="fast"):
    return merge_repetitions([doc([level(25, v)], mode=mode) for v in values])


def test_two_files_table_shows_medians_ratio_and_verdict():
    table = compare_table(merged([100, 110, 90]), merged([300, 310, 290], mode="naive"))
    row = [line for line in table.splitlines() if line.startswith("| 25 |")][0]
    assert "100 (90–110)" in row and "300 (290–310)" in row
    assert "| 3.00 |" in row and "B higher" in row
    assert "median of 3 repetitions" in table


def test_single_run_files_say_so():
    table = compare_table(doc([level(25, 100.0)]), doc([level(25, 150.0)]))
    assert "a single run: no spread" in table
    assert "single run: noise unknown" in table


def test_folder_matrix_against_a_baseline(tmp_path):
    import json
    for name, values in (("base-sockjs-tornado-cpython", [100, 110, 90]), ("other", [105, 120, 95]),
                         ("fast", [300, 320, 290])):
        d = merged(values)
        d["label"] = name
        (tmp_path / f"{name}.json").write_text(json.dumps(d))
    docs = [(str(p), json.loads(p.read_text())) for p in sorted(tmp_path.glob("*.json"))]
    table = matrix_table(docs, "sockjs-tornado-cpython")
    rows = {line.split(" | ")[0][2:]: line for line in table.splitlines()[-3:]}
    assert "1.05 ≈" in rows["other"]            # overlapping ranges: within noise
    assert rows["fast"].endswith("| 3.00 |")    # no overlap: a difference, unmarked
    assert "100 (90–110)" in table
    assert main([str(tmp_path), "--base", "nothing-matches"]) == 1
    assert main([str(tmp_path), "--base", "sockjs-tornado-cpython"]) == 0


def test_a_committed_scale_out_folder_is_judged_against_each_workers_quota(capsys):
    # Its summary.json is skipped; a worker at its 25 % quota is the server's limit, and a floor's reason
    # names the quota instead of holding a quarter-core worker to a whole core.
    from servers import ROOT
    assert main([os.path.join(ROOT, "results", "scaleout-simulated", "pypy-fast-period10ms")]) == 0
    out = capsys.readouterr().out
    one_worker = [ln for ln in out.splitlines() if ln.startswith("| ") and ln.endswith("(cgroup quota) | 271,149 "
                  "(247,468–358,539) | 873,255 (767,918–914,257) | 904,928 (303,043–1,192,561) |")]
    assert one_worker, out
    assert "(< 95 % of its 25 % quota)" in out and "(< 95 %)," not in out


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["a.json"]) == 2          # one argument must be a folder
    assert main(["--base"]) == 2
    assert "usage" in capsys.readouterr().err


def test_baseline_is_picked_by_the_name_servers_takes():
    ours, node = doc([level(25, 1.0)], mode="naive"), doc([level(25, 1.0)], mode="naive")
    node["server"].update(name="sockjs-node", runtime="node")
    peer = doc([level(25, 1.0)], mode=None)
    peer["server"].update(name="sockjs-tornado", runtime="pypy", peer=True)
    assert [run_name(d) for d in (ours, node, peer)] == ["cpython-naive", "node-naive", "sockjs-tornado-pypy"]
    docs = [("a.json", ours), ("b.json", node), ("c.json", peer)]
    assert pick_base(docs, "node-naive")[0] == "b.json"
    assert pick_base(docs, "c.json")[0] == "c.json"          # a file name works too
    with pytest.raises(ValueError, match="matches 3 files"):
        pick_base(docs, ".json")


def test_a_run_with_slow_readers_beside_a_plain_one_says_so():
    plain, slow = doc([level(25, 100.0)]), doc([level(25, 90.0)])
    slow["parameters"]["slow_clients"] = {"pct": 10.0, "kib_per_s": 64}
    table = compare_table(plain, slow)
    assert "Different slow readers: A none, B 10 % of the sessions at 64 KiB/s" in table
    assert "Different slow readers" not in compare_table(slow, slow)


def test_scaled_out_runs_get_their_own_name_and_a_setup_note():
    one, two, relay = (doc([level(25, 100.0)]) for _ in range(3))
    two["server"].update(workers=2, broker={"url": "private", "private": True})
    relay["server"].update(workers=1, broker={"url": "redis://127.0.0.1:6379/0", "private": False})
    assert [run_name(d) for d in (one, two, relay)] == ["cpython-fast", "cpython-fast-w2", "cpython-fast-w1-broker"]
    assert pick_base([("a.json", one), ("b.json", two)], "cpython-fast")[0] == "a.json"
    table = compare_table(one, two)
    assert "Different setups: A ran one process, B 2 workers sharing a broker" in table
    assert "Different setups" not in compare_table(one, doc([level(25, 100.0)]))
    proxied = doc([level(25, 100.0)])
    proxied["server"].update(workers=2, broker={"url": "private", "private": True},
                             proxy={"name": "haproxy", "version": "2.6.12-1+deb12u4"})
    assert run_name(proxied) == "cpython-fast-w2-haproxy"
    assert ("Different setups: A ran 2 workers sharing a broker, B 2 one-worker processes sharing a broker "
            "behind haproxy") in compare_table(two, proxied)


def test_a_gap_whose_lower_side_is_a_floor_is_no_verdict():
    floor = dict(rng(90, 100, 110), floor=["server 80 % busy (< 95 %) in 1 of 3"])
    assert verdict(floor, rng(200, 210, 220)) == "A is a floor: no verdict"
    assert verdict(rng(200, 210, 220), floor) == "B is a floor: no verdict"
    assert verdict(rng(90, 100, 110), dict(rng(200, 210, 220), floor=["client-bound in 1 of 3"])) == "B higher"


def _with_cpu(v, cpu, client_cpu):
    sat = {**level(25, v)["saturation"], "server_cpu_pct": cpu, "client_cpu_pct": client_cpu}
    return doc([{**level(25, v), "saturation": sat}])


def test_floor_figures_are_marked_and_explained():
    idle = merge_repetitions([_with_cpu(v, cpu, client) for v, cpu, client in
                              ((100, 99.0, 40.0), (110, 71.5, 82.0), (90, 99.0, 40.0))])
    busy = merged([300, 310, 290], mode="naive")
    table = compare_table(idle, busy)
    row = [line for line in table.splitlines() if line.startswith("| 25 |")][0]
    assert "≥ 100 (90–110)" in row and "≥ 300" not in row
    assert "A is a floor: no verdict" in row    # A's limit is unknown: it may be as high as B's
    assert "≥ A at 25 clients is a floor: server 71 % busy (< 95 %), client 82 % busy in 1 of 3." in table


def test_the_servers_own_limit_below_full_cpu_is_printed_plain_and_labelled():
    """Made-up numbers: the server 81-88 % busy beside a client at 20-30 %, on schedule (bench/floors.py)."""
    own = merge_repetitions([_with_cpu(v, cpu, client) for v, cpu, client in
                             ((100, 88.0, 20.0), (110, 81.5, 30.0), (90, 99.0, 40.0))])
    table = compare_table(own, merged([300, 310, 290], mode="naive"))
    row = [line for line in table.splitlines() if line.startswith("| 25 |")][0]
    assert "≥" not in row and "100 (90–110)" in row
    assert ("A at 25 clients: server's own limit at 81–88 % CPU (client 20–30 % busy, on schedule) in 2 of 3."
            in table)
    assert "is a floor" not in table


def test_registry_entry_names_the_run_and_a_folder_without_the_peer_gets_a_registry_baseline():
    """Two CPythons differ only by version, so a run started from a registry entry is called by it
    (server.entry); a runtimes set holds no sockjs-tornado, so the first registry entry present is
    the baseline."""
    old, new, bun = (doc([level(25, 100.0)]) for _ in range(3))
    new["server"].update(entry="cpython3.13-fast")
    bun["server"].update(name="sockjs-node", runtime="bun", entry="bun-fast")
    assert [run_name(d) for d in (old, new, bun)] == ["cpython-fast", "cpython3.13-fast", "bun-fast"]
    docs = [("a.json", bun), ("b.json", new), ("c.json", old)]
    assert default_base(docs) == "cpython-fast", "first in docs/contract/server-registry.json's order"
    assert "Against the baseline" in matrix_table(docs)
    peer = doc([level(25, 1.0)], mode=None)
    peer["server"].update(name="sockjs-tornado", runtime="cpython", peer=True)
    assert default_base(docs + [("d.json", peer)]) == "sockjs-tornado-cpython"

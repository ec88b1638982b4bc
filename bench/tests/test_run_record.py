"""What the runner records about a scaled-out run: its warning says truthfully whose figures the points carry."""

from types import SimpleNamespace

from run_record import record_scaleout


def _doc():
    return {"label": "ours · pypy", "server": {"pid": 4242}, "pinning": {}, "warnings": [], "runs": []}


def _config(workers, broker=None, proxy=None):
    return SimpleNamespace(workers=workers, broker=broker, broker_cpus=None, proxy=proxy)


def test_a_one_process_run_is_left_alone():
    doc = _doc()
    record_scaleout(doc, _config(1))
    assert doc == _doc()


def test_workers_sampled_by_one_pid_are_called_the_first_workers_alone():
    doc = _doc()
    record_scaleout(doc, _config(3))
    assert doc["server"]["workers"] == 3
    [warning] = doc["warnings"]
    assert "are the first worker's alone" in warning and "runs[].server_total sums" in warning
    assert doc["server"]["per_point_scope"] == "first_worker"   # what the floor rule reads under a quota


def test_workers_sampled_together_are_not_called_the_first_workers():
    # The sessions profile gives the client every serving process (--server-pids): its per-point figures
    # are the sum, and group_merge's note says so; this warning must not contradict it.
    doc = _doc()
    record_scaleout(doc, _config(3), per_point_sums=True)
    [warning] = doc["warnings"]
    assert "sum every serving process" in warning
    assert "alone" not in warning
    assert doc["server"]["per_point_scope"] == "all_processes"

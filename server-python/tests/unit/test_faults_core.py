"""The pure parts of fault handling: when worker deaths are a crash loop,
the session budget (counting, refusing, freeing, the default's
arithmetic), the status file, and the worker roles in the environment."""
from __future__ import annotations

import json
import logging
import os

import pytest

from sockbench_server.protocol.errors import SessionLimitReached
from sockbench_server.protocol.session_budget import (SESSION_BYTES, SessionBudget,
                                                      default_max_sessions)
from sockbench_server.scaleout.crash_loop import DeathWindow
from sockbench_server.scaleout.settings import WORKER_ENV, ScaleOut, worker_from_environment
from sockbench_server.scaleout.status_file import remove_status, write_status
from sockbench_server.protocol.service import Service
from sockbench_server.protocol.options import ServiceOptions
from sockbench_server.protocol.codecs import load_codec
from fakes import FakeReceiver, FakeTimers, Recorder, info


def test_five_deaths_within_10_s_are_a_crash_loop_and_four_are_not():
    w = DeathWindow(5, 10.0)
    assert [w.record(t) for t in (0, 1, 2, 3)] == [False] * 4
    assert w.record(10.0) is True


def test_deaths_spread_over_more_than_10_s_are_not_a_crash_loop():
    w = DeathWindow(5, 10.0)
    assert not any(w.record(t) for t in (0, 3, 6, 9, 10.5, 13.5, 16.5, 19.9))
    assert w.record(20.0) is True  # 10.5 .. 20.0: five within 10 s


def test_the_default_session_budget_is_the_memory_budget_at_20_KiB_a_session():
    assert SESSION_BYTES == 20 * 1024
    assert default_max_sessions(64 * 1024 * 1024) == 3276
    assert default_max_sessions(1024) == 1  # never 0
    assert default_max_sessions(2 ** 40) == 1_000_000  # the flag's upper bound


def two_services(limit):
    budget = SessionBudget(limit=limit)
    timers = FakeTimers()
    make = lambda prefix: Service(  # noqa: E731
        prefix, connection_class=type("App", (Recorder,), {"events": []}),
        options=ServiceOptions(), codec=load_codec("json"), timers=timers, session_budget=budget)
    return make("/a"), make("/b"), budget, timers


def test_sessions_of_every_mount_and_kind_count_against_one_budget(caplog):
    a, b, budget, _ = two_services(3)
    http = a.create("s1", info())
    ws = b.create(None, info())
    ws.attach(FakeReceiver())
    raw = a.create_raw(info())
    raw.attach(FakeReceiver())
    assert budget.count == 3 and not a.has_room() and not b.has_room()
    with caplog.at_level(logging.WARNING):
        for service in (a, b):
            with pytest.raises(SessionLimitReached):
                service.create("s2", info())
        with pytest.raises(SessionLimitReached):
            a.create_raw(info())
    assert budget.refused == 5  # two has_room() above, three creates
    assert "s2" not in a.sessions and budget.count == 3
    lines = [r for r in caplog.records if "session limit reached" in r.getMessage()]
    assert len(lines) == 1, "refusals are logged at most once per 10 s"
    ws.close()  # a websocket session is gone with its close: its place is free at once
    assert budget.count == 2 and a.has_room()
    raw.close()
    assert budget.count == 1
    del http


def test_an_http_session_frees_its_place_when_it_expires_not_before():
    a, _, budget, timers = two_services(1)
    s = a.create("s1", info())
    s.attach(FakeReceiver(capacity=1))
    s.close()  # closed, but still answering its close frame until it expires
    assert budget.count == 1
    timers.advance(a.options.disconnect_delay + 0.1)
    assert budget.count == 0 and a.has_room()
    a.forget(s)  # forgetting again frees nothing twice
    assert budget.count == 0


def test_without_a_limit_nothing_is_refused():
    budget = SessionBudget(limit=None)
    assert all(budget.take() for _ in range(10_000)) and budget.refused == 0


def test_the_status_file_is_replaced_whole_and_removed(tmp_path):
    path = str(tmp_path / "status.json")
    write_status(path, supervisor_pid=10, worker_pids=[11, 12], restarts=0)
    write_status(path, supervisor_pid=10, worker_pids=[11, 13], restarts=1)
    with open(path) as f:
        assert json.load(f) == {"supervisor_pid": 10, "worker_pids": [11, 13], "restarts": 1}
    assert os.listdir(str(tmp_path)) == ["status.json"], "no temporary file left behind"
    remove_status(path)
    remove_status(path)  # already gone: no error
    assert os.listdir(str(tmp_path)) == []


@pytest.mark.parametrize("value, role", [("1/2", (1, 2)), ("2/2", (2, 2)), ("standby/2", (0, 2))])
def test_worker_roles_from_the_environment(monkeypatch, value, role):
    monkeypatch.setenv(WORKER_ENV, value)
    assert worker_from_environment() == role


@pytest.mark.parametrize("value", ["0/2", "3/2", "standby/0", "standby/65", "x/2", "1-2", "1/"])
def test_malformed_worker_roles_are_refused(monkeypatch, value):
    monkeypatch.setenv(WORKER_ENV, value)
    with pytest.raises(ValueError):
        worker_from_environment()


def test_the_standby_worker_is_a_worker_with_its_own_log_tag():
    standby = ScaleOut(workers=2, standby=True)
    assert standby.is_worker and standby.tag.startswith("worker standby/2 pid ")
    promoted = standby._replace(worker_index=2, standby=False)
    assert promoted.is_worker and promoted.tag.startswith("worker 2/2 pid ")
    assert "worker 2/2 pid" in promoted.log_format

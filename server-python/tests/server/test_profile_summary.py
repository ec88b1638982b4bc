"""tools/profile_summary.py: the tables of a profile name the innermost named
frame of each sample, share samples correctly and read py-spy's raw format."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))

from profile_summary import Summary, pyspy_stacks, short_file  # noqa: E402

PYSPY_RAW = """\
_run_once (/r/.venv/lib/python3.11/asyncio/base_events.py:1922);flush (/r/server-python/sockbench_server/protocol/fanout.py:320);write_nowait (/r/server-python/sockbench_server/tornado_io/tornado_private.py:119) 6
_run_once (/r/.venv/lib/python3.11/asyncio/base_events.py:1922);deliver (/r/server-python/sockbench_server/protocol/fanout.py:290) 3
process 42:"python -m sockbench_server";_run_once (/r/.venv/lib/python3.11/asyncio/base_events.py:1922) 1
"""


def test_files_are_named_by_their_place_in_their_package():
    assert short_file("/x/.venv-cpython/lib/python3.11/site-packages/tornado/web.py") == "tornado/web.py"
    assert short_file("/x/.venv-cpython/lib/python3.11/asyncio/events.py") == "asyncio/events.py"
    assert short_file("/usr/lib/pypy3.9/asyncio/events.py") == "asyncio/events.py"
    assert short_file("/repo/server-python/sockbench_server/api.py") == "sockbench_server/api.py"


def test_pyspy_raw_lines_give_stacks_with_counts_and_no_process_frames():
    stacks = list(pyspy_stacks(PYSPY_RAW.splitlines()))
    assert [n for _, n in stacks] == [6, 3, 1]
    assert stacks[0][0][-1] == "write_nowait (sockbench_server/tornado_io/tornado_private.py)"
    assert stacks[2][0] == ["_run_once (asyncio/base_events.py)"]


def test_self_time_goes_to_the_innermost_frame_and_inclusive_counts_each_function_once():
    s = Summary(pyspy_stacks(PYSPY_RAW.splitlines()))
    assert s.total == 10
    assert s.self_samples["write_nowait (sockbench_server/tornado_io/tornado_private.py)"] == 6
    assert s.inclusive["_run_once (asyncio/base_events.py)"] == 10
    assert s.inclusive["flush (sockbench_server/protocol/fanout.py)"] == 6
    assert "| 60.0 | `write_nowait (sockbench_server/tornado_io/tornado_private.py)` |" in s.self_table(5)
    ours = s.inclusive_table(5, prefix="sockbench_server/")
    assert "asyncio" not in ours and "| 30.0 | `deliver (sockbench_server/protocol/fanout.py)` |" in ours


def test_a_frame_without_a_name_gives_its_time_to_the_nearest_named_caller():
    # vmprof on PyPy: JIT-compiled code and C calls are bare addresses (None here).
    s = Summary([(["run (asyncio/events.py)", "send_all (x.py)", None, None], 4), ([None], 1)])
    assert s.self_samples["send_all (x.py)"] == 4
    assert s.unnamed == 1 and s.total == 5

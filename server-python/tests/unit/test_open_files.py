"""--sessions arithmetic: one serving process's share, the open files it
needs, the workers a refusal suggests and the budget that holds the share."""
from sockbench_server import open_files
from sockbench_server.protocol.session_budget import default_max_sessions, max_sessions_for_share

MiB = 1024 * 1024


def test_a_process_needs_its_share_rounded_up_plus_the_spare():
    assert open_files.files_needed(50000, 1) == 50064
    assert open_files.files_needed(50000, 3) == 16667 + 64
    assert open_files.files_needed(1, 64) == 65


def test_the_suggested_workers_are_the_fewest_whose_share_fits():
    assert open_files.workers_that_fit(50000, 20000) == 3
    # 1000 / 7 = 143 > 200 - 64; 1000 / 8 = 125 fits
    assert open_files.workers_that_fit(1000, 200) == 8
    assert open_files.workers_that_fit(19936, 20000) == 1


def test_no_workers_are_suggested_when_none_up_to_64_would_fit():
    assert open_files.workers_that_fit(100000, 200) is None
    assert open_files.workers_that_fit(10, 64) is None


def test_the_refusal_is_one_line_naming_need_limit_and_workers():
    assert open_files.refusal("sockbench-tornado", 50000, 1, 20000) == (
        "sockbench-tornado: 50000 sessions need 50064 open files per process but the limit is "
        "20000 (ulimit -n); use --workers 3 or raise ulimit -n")
    assert open_files.refusal("sockbench-tornado", 100000, 1, 200).endswith("(ulimit -n); raise ulimit -n")


def test_a_share_that_fits_exactly_is_not_refused():
    assert open_files.refusal("sockbench-tornado", 19936, 1, 20000) is None
    assert open_files.refusal("sockbench-tornado", 19937, 1, 20000) is not None
    assert open_files.refusal("sockbench-tornado", 50000, 3, 20000) is None


def test_the_budget_holds_the_share_and_a_quarter_more_never_below_the_default():
    assert max_sessions_for_share(10000, 64 * MiB) == 12500
    assert max_sessions_for_share(10, 64 * MiB) == default_max_sessions(64 * MiB)
    assert max_sessions_for_share(10_000_000, 64 * MiB) == 1_000_000

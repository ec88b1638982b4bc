"""bench/session_kind_costs.py: each session kind's broadcasts/s against the same server's websocket sessions.

The documents are committed reference runs (results/reference/, sockbench-tornado fast on PyPy and on CPython)
cut to their 100- and 1000-client levels and made sockbench.result/6 files of plain websocket sessions
(`reference_run`); each test then changes only what it says: the session kind in `parameters` (transports,
compression, slow_clients) with the per-point records that kind writes (`compression`, `slow_clients`), and
rates scaled by a factor in every repetition (`scaled`). Every document written is checked against
results/schema.json first, so the tests cannot drift from what the client writes."""

import copy
import functools
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import session_kind_costs as skc  # noqa: E402
from level_ranges import level_range, median_ratio  # noqa: E402
from results_io import load_result, schema_errors  # noqa: E402

REFERENCE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "results", "reference")
PYPY_FAST = "2026-11-26-sockbench-tornado-pypy-json-fast.json"
CPYTHON_FAST = "2026-11-26-sockbench-tornado-cpython-json-fast.json"
PYPY_LABEL = "our server (Tornado) on PyPy, fast"
MIX = "websocket:16,xhr-streaming:2,eventsource:1,xhr-polling:1"


@functools.lru_cache(maxsize=None)
def _reference(name):
    return load_result(os.path.join(REFERENCE, name))


def reference_run(name=PYPY_FAST):
    """A committed reference run, changed: only its 100- and 1000-client levels kept (parameters.levels too),
    schema id sockbench.result/6 with the field v6 requires, parameters.transports = websocket."""
    doc = copy.deepcopy(_reference(name))
    doc["schema"] = "sockbench.result/6"
    doc["levels"] = [lv for lv in doc["levels"] if lv["concurrency"] in (100, 1000)]
    doc["parameters"]["levels"] = [100, 1000]
    doc["parameters"]["transports"] = "websocket"
    return doc


def _level_copies(doc):
    """Every level object of a merged file: each headline level and each of its repetitions."""
    for level in doc["levels"]:
        yield level
        yield from level.get("runs") or []


def _latency(p99):
    return {"count": 100, "mean": p99 / 2, "stddev": 1.0, "min": 1.0, "p50": p99 / 2, "p90": p99, "p99": p99,
            "p999": p99, "max": p99}


def with_kind(doc, transports=None, deflate=False, slow=None, cut_off=0, slow_p99_ms=4200.0, inflated_per_read=3.1):
    """The document as a run of another session kind: parameters.transports / compression / slow_clients set,
    and every point given what that kind records: `compression` (bytes_inflated = inflated_per_read x
    bytes_read) with deflate; `slow_clients` with slow readers (a tenth of the level's sessions, keeping up
    but for `cut_off` sessions cut off at each point, their copies `slow_p99_ms` behind at p99)."""
    doc = copy.deepcopy(doc)
    parameters = doc["parameters"]
    if transports:
        parameters["transports"] = transports
    if deflate:
        parameters["compression"] = "permessage-deflate"
    if slow:
        parameters["slow_clients"] = {"pct": slow[0], "kib_per_s": slow[1]}
    for level in _level_copies(doc):
        sessions = max(1, level["concurrency"] // 10)
        for point in level["points"]:
            if deflate:
                point["compression"] = {"bytes_read": 1_000_000, "bytes_inflated": int(inflated_per_read * 1_000_000)}
            if slow:
                reasons = {"SockJS close 1008 Client not reading": cut_off} if cut_off else {}
                point["slow_clients"] = {"sessions": sessions, "received": point["sent"] * sessions,
                                         "expected_received": point["sent"] * sessions, "lost_sessions": cut_off,
                                         "cut_off_reasons": reasons, "fanout_ms": _latency(slow_p99_ms)}
    return doc


def scaled(doc, sent=1.0, received=1.0):
    """The document with every rate and count scaled, in every repetition alike (so each level's headline
    stays its median repetition's): sent_per_s and sent by `sent`, received_per_s, received, expected_received
    and the received spread by `received`."""
    doc = copy.deepcopy(doc)
    for level in _level_copies(doc):
        for point in level["points"]:
            point["sent_per_s"] *= sent
            point["sent"] = round(point["sent"] * sent)
            point["received_per_s"] *= received
            point["received"] = round(point["received"] * received)
            point["expected_received"] = round(point["expected_received"] * received)
        sat = level.get("saturation")
        if sat:
            sat["sent_per_s"] *= sent
            sat["received_per_s"] *= received
            if sat.get("spread"):
                sat["spread"] = {k: v * received for k, v in sat["spread"].items()}
    return doc


def write_folder(tmp_path, docs):
    """Write {file name: document} to tmp_path, each checked against results/schema.json first."""
    for name, doc in docs.items():
        assert schema_errors(doc) == [], name
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    return str(tmp_path)


def run(argv, capsys):
    """(exit status, stdout, stderr) of the command line, usage errors (SystemExit) included."""
    try:
        code = skc.main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def row(text, level, label=PYPY_LABEL):
    """The cells of `label`'s row in the broadcasts/s table of `level` clients (the first table of that level)."""
    lines = text.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"| {level} clients: broadcasts/s")))
    line = next(line for line in lines[start:] if line.startswith(f"| {label} |"))
    return [c.strip() for c in line.strip("|").split(" | ")][1:]


def header(text, level):
    line = next(line for line in text.splitlines() if line.startswith(f"| {level} clients: broadcasts/s"))
    return [c.strip() for c in line.strip("|").split(" | ")]


# --- kinds: detection, names, order --------------------------------------------------------------------

def test_kinds_are_read_from_parameters_and_named_with_the_mix_shares_computed():
    plain = reference_run()
    cases = {
        "websocket": plain,
        "xhr-streaming": with_kind(plain, transports="xhr-streaming"),
        "mix 80/10/5/5 (ws/xhr-s/es/xhr-p)": with_kind(plain, transports=MIX),
        "mix 33.3/66.7 (ws/xhr-p)": with_kind(plain, transports="websocket:1,xhr-polling:2"),
        "websocket + deflate": with_kind(plain, deflate=True),
        "websocket + 10% slow @64 KiB/s": with_kind(plain, slow=(10, 64)),
        "websocket + 12.5% slow @8 KiB/s": with_kind(plain, slow=(12.5, 8)),
    }
    for name, doc in cases.items():
        assert schema_errors(doc) == [], name
        assert skc.kind_name(skc.session_kind(doc)) == name
    assert skc.session_kind(plain) == skc.WEBSOCKET


def test_a_file_without_the_kind_fields_is_plain_websocket():
    older = copy.deepcopy(_reference(PYPY_FAST))  # a v5 file: no transports, compression or slow_clients
    assert skc.session_kind(older) == skc.WEBSOCKET


def test_columns_put_websocket_first_then_single_transports_mixes_deflate_and_slow_readers(tmp_path, capsys):
    plain = reference_run()
    folder = write_folder(tmp_path, {
        "a-slow.json": with_kind(plain, slow=(10, 64)),
        "b-deflate.json": with_kind(plain, deflate=True),
        "c-mix.json": with_kind(plain, transports=MIX),
        "d-polling.json": with_kind(plain, transports="xhr-polling"),
        "e-streaming.json": with_kind(plain, transports="xhr-streaming"),
        "f-plain.json": plain,
    })
    code, out, _ = run([folder, "--levels", "100"], capsys)
    assert code == 0
    assert header(out, 100) == ["100 clients: broadcasts/s at saturation", "websocket", "xhr-streaming", "xhr-polling",
                                "mix 80/10/5/5 (ws/xhr-s/es/xhr-p)", "websocket + deflate",
                                "websocket + 10% slow @64 KiB/s"]


# --- the figure, its ratio and the verdict ----------------------------------------------------------------

def test_the_cell_is_sent_per_second_median_repetition_with_the_repetitions_range(tmp_path, capsys):
    """pypy-fast at 100 clients sent 123,909 / 124,115 / 119,046 msgs/s at saturation in its 3 repetitions; the
    headline's (median) repetition is the second."""
    code, out, _ = run([write_folder(tmp_path, {"plain.json": reference_run()}), "--levels", "100"], capsys)
    assert code == 0
    assert row(out, 100) == ["124 k (119 k–124 k)"]


def test_overlapping_ranges_are_within_noise_with_the_ratio_of_medians(tmp_path, capsys):
    plain = reference_run()
    streaming = scaled(with_kind(plain, transports="xhr-streaming"), 0.97, 0.97)
    folder = write_folder(tmp_path, {"plain.json": plain, "streaming.json": streaming})
    code, out, _ = run([folder], capsys)
    assert code == 0
    assert row(out, 100)[1] == "120 k (115 k–120 k) · × 0.97 · within noise"
    assert row(out, 1000)[1].endswith(" · × 0.97 · within noise")


def test_ranges_apart_are_called_lower_or_higher(tmp_path, capsys):
    plain = reference_run()
    folder = write_folder(tmp_path, {"plain.json": plain,
                                     "mix.json": scaled(with_kind(plain, transports=MIX), 0.4, 0.4),
                                     "deflate.json": scaled(with_kind(plain, deflate=True), 1.5, 1.5)})
    code, out, _ = run([folder, "--levels", "100,1000"], capsys)
    assert code == 0
    for level in (100, 1000):
        cells = row(out, level)
        assert cells[1].endswith(" · × 0.40 · lower"), cells
        assert cells[2].endswith(" · × 1.50 · higher"), cells


def test_slow_readers_are_compared_by_broadcasts_not_by_the_healthy_sessions_copies(tmp_path, capsys):
    """A tenth of the sessions read slowly: the point's received/s counts the other nine tenths, so at the very
    same broadcast rate it is 90 % of the plain run's. The table compares broadcasts/s: ratio 1.00."""
    plain = reference_run()
    slow = scaled(with_kind(plain, slow=(10, 64)), sent=1.0, received=0.9)
    level = lambda doc: next(lv for lv in doc["levels"] if lv["concurrency"] == 100)  # noqa: E731
    assert round(median_ratio(level_range(level(plain)), level_range(level(slow))), 2) == 0.9  # the trap
    code, out, _ = run([write_folder(tmp_path, {"plain.json": plain, "slow.json": slow}), "--levels", "100"], capsys)
    assert code == 0
    assert row(out, 100)[1] == "124 k (119 k–124 k) · × 1.00 · within noise"


def test_a_floor_is_marked_listed_with_its_reason_and_its_ratio_is_a_bound_without_verdict(tmp_path, capsys):
    """The xhr-streaming run's first repetition at 100 clients made client-bound (its saturation's
    client_bound set), its rates 0.4 x websocket's: a floor below websocket, so no "lower" can be called."""
    plain = reference_run()
    streaming = scaled(with_kind(plain, transports="xhr-streaming"), 0.4, 0.4)
    level = next(lv for lv in streaming["levels"] if lv["concurrency"] == 100)
    level["runs"][0]["saturation"]["client_bound"] = True
    code, out, _ = run([write_folder(tmp_path, {"plain.json": plain, "streaming.json": streaming}), "--levels", "100"],
                       capsys)
    assert code == 0
    assert row(out, 100)[1] == "≥ 49.6 k (47.6 k–49.6 k) † · × ≥ 0.40 · a floor: no verdict"
    assert f"- {PYPY_LABEL}, xhr-streaming: client-bound in 1 of 3" in out.splitlines()


def test_each_server_is_read_against_its_own_websocket_and_a_missing_one_says_so(tmp_path, capsys):
    plain = reference_run()
    cpython_streaming = with_kind(reference_run(CPYTHON_FAST), transports="xhr-streaming")
    folder = write_folder(tmp_path, {"pypy.json": plain, "pypy-streaming.json": scaled(
        with_kind(plain, transports="xhr-streaming"), 0.4, 0.4), "cpython-streaming.json": cpython_streaming})
    code, out, _ = run([folder, "--levels", "100"], capsys)
    assert code == 0
    cpython = "our server (Tornado) on CPython 3.11, fast"
    assert [line.split(" |")[0] for line in out.splitlines() if line.startswith("| our")] == \
        [f"| {PYPY_LABEL}", f"| {cpython}", f"| {PYPY_LABEL}", f"| {cpython}"]  # registry order, both tables
    assert row(out, 100)[1].endswith("· × 0.40 · lower")
    assert row(out, 100, cpython) == ["—", "53.1 k (53.1 k–57.6 k)"]
    assert f"- {cpython}, xhr-streaming: no ratio, the folder has no websocket file of this server." in out


# --- the cost table -----------------------------------------------------------------------------------------

def test_the_cost_table_shows_cpu_rss_cut_offs_lag_and_the_compression_ratio(tmp_path, capsys):
    """pypy-fast at 100 clients: the median repetition's saturation point ran the server at 99.751 % CPU with
    133,332,992 bytes resident (127 MiB). The slow-reader run cut off 2 sessions at each of the median
    repetition's 8 points, their p99 4.2 s behind; the deflate run's sessions inflated 3.1 bytes per byte read.
    Its frames held 2,395.186 messages each on average there (fast mode coalesces)."""
    plain = reference_run()
    folder = write_folder(tmp_path, {"plain.json": plain, "deflate.json": with_kind(plain, deflate=True),
                                     "slow.json": with_kind(plain, slow=(10, 64), cut_off=2)})
    code, out, _ = run([folder, "--levels", "100"], capsys)
    assert code == 0
    line = next(line for line in out.splitlines()
                if line.startswith(f"| {PYPY_LABEL} |") and "CPU" in line)
    assert [c.strip() for c in line.strip("|").split(" | ")][1:] == [
        "100 % CPU · 127 MiB · 2,395 msgs/frame", "100 % CPU · 127 MiB · 2,395 msgs/frame · deflate 3.1:1",
        "100 % CPU · 127 MiB · 2,395 msgs/frame · cut off 16 · slow p99 4.2 s"]
    assert (f"- {PYPY_LABEL}, websocket + 10% slow @64 KiB/s: 16 cut off: SockJS close 1008 Client not reading (16)"
            in out.splitlines())


def test_a_level_that_opened_fewer_sessions_than_asked_is_listed_under_its_table(tmp_path, capsys):
    """The xhr-streaming run is the plain one with 900 of its 1000 sessions opened in two repetitions (the
    figures unchanged): the table says so, naming the range and how many repetitions; the plain run opened
    every session and is not listed."""
    plain = reference_run()
    short = with_kind(plain, transports="xhr-streaming")
    level = next(lv for lv in short["levels"] if lv["concurrency"] == 1000)
    for run_ in level["runs"][:2]:
        run_["connected"] = 900
    folder = write_folder(tmp_path, {"plain.json": plain, "xhr.json": short})
    code, out, _ = run([folder, "--levels", "1000"], capsys)
    assert code == 0
    assert f"- {PYPY_LABEL}, xhr-streaming: opened 900 of 1,000 sessions in 2 of 3 repetitions" in out.splitlines()
    assert f"- {PYPY_LABEL}, websocket: opened" not in out


# --- refusals -----------------------------------------------------------------------------------------------

def test_two_files_of_one_server_and_kind_are_refused_naming_both(tmp_path, capsys):
    plain = reference_run()
    folder = write_folder(tmp_path, {"one.json": plain, "two.json": plain})
    code, out, err = run([folder], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert os.path.join(folder, "one.json") in err and os.path.join(folder, "two.json") in err


def test_an_empty_folder_is_refused_in_one_line(tmp_path, capsys):
    code, out, err = run([str(tmp_path)], capsys)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"session_kind_costs: no result files (*.json) in {tmp_path}"]


def test_a_bad_levels_value_is_a_usage_error(tmp_path, capsys):
    code, _, err = run([str(tmp_path), "--levels", "100,many"], capsys)
    assert code == 2
    assert err.startswith("usage: session_kind_costs.py")


def test_sessions_runs_are_left_out_by_name(tmp_path, capsys):
    """A run judged on every copy (parameters.all_copies set, as the sessions profile does) has another
    verdict: it gets no column, and the line above the tables names its file."""
    plain = reference_run()
    every_copy = with_kind(plain, transports="xhr-streaming")
    every_copy["parameters"]["all_copies"] = True
    code, out, _ = run([write_folder(tmp_path, {"plain.json": plain, "every-copy.json": every_copy})], capsys)
    assert code == 0
    assert out.splitlines()[0].endswith(": every-copy.json.")
    assert header(out, 100) == ["100 clients: broadcasts/s at saturation", "websocket"]


# --- the published page ---------------------------------------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(HERE))
#: (page, folder): the committed session-kind sets whose tables the page quotes.
SESSION_KIND_SETS = [("docs/session-kinds.md", "results/reference-transports"),
                     ("docs/session-kinds.md", "results/reference-websocket-options")]


@pytest.mark.parametrize("page,folder", SESSION_KIND_SETS)
def test_the_session_kinds_page_holds_the_tables_its_folders_print_today(page, folder, capsys):
    code, printed, err = run([os.path.join(ROOT, folder)], capsys)
    assert code == 0, err
    with open(os.path.join(ROOT, page), encoding="utf-8") as fh:
        text = fh.read()
    assert printed.strip() in text, (
        f"{page} does not hold the tables of {folder}: regenerate them with `make session-kind-costs DIR={folder}`")

"""make compare's verdict: the summary page's sentences (site/src/js/verdict.js) run through Node."""

import os
import re

import pytest

from compare import main
from verdict import VerdictUnavailable, verdict_sentences

REFERENCE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                         "results", "reference")


#: The committed limit server runs (the registry's `limit` group: limit-naive, limit-fast).
LIMIT_FILES = ("2026-11-26-limit-c-na-naive.json", "2026-11-26-limit-c-na-fast.json")
#: "One frame per message, 2000 clients" and what follows it: the yardstick in brackets, then ": ".
HEAD = re.compile(r"^(?P<group>[^,]+), (?P<level>\d+) clients(?: \((?P<yardstick>[^)]*)\))?: ")


def _reference_paths():
    return sorted(os.path.join(REFERENCE, f) for f in os.listdir(REFERENCE) if f.endswith(".json"))


def test_one_sentence_per_algorithm_group_at_the_highest_level_all_measured():
    heads = [HEAD.match(line) for line in verdict_sentences(_reference_paths())]
    assert [h["group"] for h in heads] == ["One frame per message", "Coalesced"]
    assert {h["level"] for h in heads} == {"2000"}


def test_the_limit_server_is_the_yardstick_beside_the_level_not_a_ranked_runtime():
    per_message, coalesced = verdict_sentences(_reference_paths(), level=1000)
    assert per_message.startswith("One frame per message, 1000 clients (this machine's ceiling, the C limit server: "
                                  "≥ 272k): ours on PyPy 187k (147k–204k) ≈ ")
    assert coalesced.startswith("Coalesced, 1000 clients (this machine's ceiling, the C limit server: ≥ 31.3M): "
                                "sockjs-node ≥ 32.1M")
    for line in (per_message, coalesced):
        # Named once as the yardstick, never in the ranking, and never as a runtime ("limit on c").
        assert line.count("the C limit server: ") == 1
        assert "limit on" not in line.lower()


def test_a_limit_figure_keeps_its_floor_mark_and_has_none_when_it_is_the_servers_limit():
    assert "(this machine's ceiling, the C limit server: 280k): " in verdict_sentences(_reference_paths(), level=500)[0]
    assert "(this machine's ceiling, the C limit server: ≥ 238k): " in verdict_sentences(_reference_paths(), level=2000)[0]


def test_without_the_limit_server_in_the_set_the_sentence_has_no_yardstick():
    paths = [p for p in _reference_paths() if os.path.basename(p) not in LIMIT_FILES]
    per_message, coalesced = verdict_sentences(paths, level=1000)
    assert per_message.startswith("One frame per message, 1000 clients: ours on PyPy 187k (147k–204k) ≈ ")
    assert coalesced.startswith("Coalesced, 1000 clients: sockjs-node ≥ 32.1M")
    assert "limit server" not in per_message + coalesced


def test_the_level_picked_is_the_level_judged():
    lines = verdict_sentences(_reference_paths(), level=500)
    assert all(HEAD.match(line)["level"] == "500" for line in lines)


def test_compare_prints_the_verdict_above_the_table(capsys):
    assert main([REFERENCE, "--level", "1000"]) == 0
    out = capsys.readouterr().out
    head, _, table = out.partition("| run |")
    assert "- One frame per message, 1000 clients (" in head and "- Coalesced, 1000 clients (" in head
    assert "≥" in head    # the reference set has floors at 1000 clients
    assert table


def test_compare_of_two_files_gives_their_verdict(capsys):
    paths = [p for p in _reference_paths() if p.endswith("-naive.json") and os.path.basename(p) not in LIMIT_FILES][:2]
    assert main(paths) == 0
    out = capsys.readouterr().out
    assert out.startswith("Verdict") and "- One frame per message, 2000 clients: ours on " in out


def test_compare_of_a_runtime_and_the_limit_server_ranks_nothing_and_gives_the_ceiling(capsys):
    paths = [os.path.join(REFERENCE, f) for f in (LIMIT_FILES[0], "2026-11-26-sockbench-tornado-cpython-json-naive.json")]
    assert main(paths) == 0
    out = capsys.readouterr().out
    assert ("- One frame per message, 2000 clients (this machine's ceiling, the C limit server: ≥ 238k): "
            "ours on CPython 124k (102k–131k); the only run measured here besides the ceiling, nothing to rank; ") in out


def test_a_bad_level_is_a_usage_error(capsys):
    assert main([REFERENCE, "--level", "many"]) == 2
    assert "usage:" in capsys.readouterr().err


def test_without_node_one_line_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(VerdictUnavailable, match="needs Node"):
        verdict_sentences(_reference_paths())
    assert main([REFERENCE]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "install nodejs" in err[0]

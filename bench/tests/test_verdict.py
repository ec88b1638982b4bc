"""make compare's verdict: the summary page's sentences (site/src/js/verdict.js) run through Node."""

import os

import pytest

from compare import main
from verdict import VerdictUnavailable, verdict_sentences

REFERENCE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                         "results", "reference")


def _reference_paths():
    return sorted(os.path.join(REFERENCE, f) for f in os.listdir(REFERENCE) if f.endswith(".json"))


def test_one_sentence_per_algorithm_group_at_the_highest_level_all_measured():
    lines = verdict_sentences(_reference_paths())
    assert [line.split(",")[0] for line in lines] == ["One frame per message", "Coalesced"]
    levels = {line.split(",")[1].split(":")[0].strip() for line in lines}
    assert levels == {"2000 clients"}


def test_the_level_picked_is_the_level_judged():
    lines = verdict_sentences(_reference_paths(), level=500)
    assert all(", 500 clients: " in line for line in lines)


def test_compare_prints_the_verdict_above_the_table(capsys):
    assert main([REFERENCE, "--level", "1000"]) == 0
    out = capsys.readouterr().out
    head, _, table = out.partition("| run |")
    assert "- One frame per message, 1000 clients: " in head and "- Coalesced, 1000 clients: " in head
    assert "≥" in head    # the reference set has floors at 1000 clients
    assert table


def test_compare_of_two_files_gives_their_verdict(capsys):
    paths = [p for p in _reference_paths() if p.endswith("-naive.json")][:2]
    assert main(paths) == 0
    out = capsys.readouterr().out
    assert out.startswith("Verdict") and "- One frame per message, 2000 clients: " in out


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

"""The fairness rule on saturation figures: the server's limit only when the server was >= 95 % busy,
the client was not client-bound and the level really overloaded the server.

The cases are docs/contract/floor-rule-cases.json, which site/src/js/floors.test.js runs against the
pages' implementation too: one table, so the two implementations cannot drift apart unseen."""

import json
from pathlib import Path

import pytest

from floors import NOT_SAMPLED_NOTE, SERVER_BUSY_PCT, level_floor_reasons, repetition_floor_reasons, server_sampled

CASES = json.loads((Path(__file__).resolve().parents[2] / "docs" / "contract" / "floor-rule-cases.json")
                   .read_text(encoding="utf-8"))
RULES = {"repetition": repetition_floor_reasons, "level": level_floor_reasons}


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda case: case["name"])
def test_floor_rule_case(case):
    reasons = RULES[case["rule"]](case["level"], server_sampled=case.get("server_sampled", True))
    assert reasons == case["reasons"]


@pytest.mark.parametrize("case", CASES["server_sampled"], ids=lambda case: case["name"])
def test_whether_the_server_was_sampled(case):
    assert server_sampled(case["result"]) is case["sampled"]


def test_the_busy_threshold_and_the_not_sampled_note_are_the_tables():
    assert SERVER_BUSY_PCT == CASES["server_busy_pct"]
    assert NOT_SAMPLED_NOTE == CASES["not_sampled_note"]

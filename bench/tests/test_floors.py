"""The fairness rule on saturation figures: the server's limit when the server was >= 95 % busy, or its
own limit below full CPU when the client had clear headroom; otherwise a floor, with the reasons; the
client was not client-bound and the level really overloaded the server in either case.

The cases are docs/contract/floor-rule-cases.json, which site/src/js/floors.test.js runs against the
pages' implementation too: one table, so the two implementations cannot drift apart unseen."""

import json
from pathlib import Path

import pytest

from floors import (CLIENT_CEILING_SHARE_PCT, CLIENT_HEADROOM_CPU_PCT, NOT_SAMPLED_NOTE, SERVER_BUSY_PCT,
                    SERVER_OWN_LIMIT_MIN_PCT, ServerView,
                    level_floor_reasons, limit_notes, repetition_floor_reasons, repetition_limit_notes,
                    server_capacity_pct, server_sampled)

CASES = json.loads((Path(__file__).resolve().parents[2] / "docs" / "contract" / "floor-rule-cases.json")
                   .read_text(encoding="utf-8"))
RULES = {"repetition": (repetition_floor_reasons, repetition_limit_notes), "level": (level_floor_reasons, limit_notes)}


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda case: case["name"])
def test_floor_rule_case(case):
    reasons, notes = RULES[case["rule"]]
    server = ServerView(case.get("server_sampled", True), case.get("server_capacity_pct", 100.0))
    assert reasons(case["level"], server) == case["reasons"]
    assert notes(case["level"], server) == case["notes"]


@pytest.mark.parametrize("case", CASES["server_sampled"], ids=lambda case: case["name"])
def test_whether_the_server_was_sampled(case):
    assert server_sampled(case["result"]) is case["sampled"]


@pytest.mark.parametrize("case", CASES["server_capacity"], ids=lambda case: case["name"])
def test_what_cpu_the_server_could_use(case):
    assert server_capacity_pct(case["result"]) == case["capacity_pct"]


def test_the_constants_and_the_not_sampled_note_are_the_tables():
    assert SERVER_BUSY_PCT == CASES["server_busy_pct"]
    assert SERVER_OWN_LIMIT_MIN_PCT == CASES["server_own_limit_min_pct"]
    assert CLIENT_HEADROOM_CPU_PCT == CASES["client_headroom_cpu_pct"]
    assert CLIENT_CEILING_SHARE_PCT == CASES["client_ceiling_share_pct"]
    assert NOT_SAMPLED_NOTE == CASES["not_sampled_note"]


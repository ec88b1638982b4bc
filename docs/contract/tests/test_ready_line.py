"""The Python READY parser against the shared table of cases
(docs/contract/ready-line-cases.json), which the Java parser
(client-java ReadyLine) is tested against too: both read one grammar."""

import json
import os

import pytest

from sockbench_contract.ready_line import parse_ready_line

CASES_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ready-line-cases.json")
with open(CASES_PATH, encoding="utf-8") as f:
    CASES = json.load(f)


@pytest.mark.parametrize("case", CASES["valid"], ids=lambda c: repr(c["line"]))
def test_a_valid_line_gives_its_url_and_fields(case):
    assert parse_ready_line(case["line"]) == (case["url"], case["fields"])


@pytest.mark.parametrize("case", CASES["invalid"], ids=lambda c: c["why"] + ": " + repr(c["line"]))
def test_an_invalid_line_is_refused(case):
    with pytest.raises(ValueError):
        parse_ready_line(case["line"])


def test_every_line_is_listed_once_and_every_refusal_says_why():
    lines = [c["line"] for c in CASES["valid"] + CASES["invalid"]]
    assert len(lines) == len(set(lines))
    assert all(c["why"].strip() for c in CASES["invalid"])

"""list-profiles.schema.json takes what the client prints (geometric and
additive profiles, the `warmup` pass) and refuses what the runner could not
use. The real client's output is checked against it where the runner reads it
(bench/profiles.py, bench/tests/test_profiles.py)."""

import copy
import json
import os

import jsonschema
import pytest

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "list-profiles.schema.json")
with open(SCHEMA_PATH, encoding="utf-8") as f:
    SCHEMA = json.load(f)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def geometric(name, **changes):
    p = {"name": name, "description": "a sweep", "levels": [25, 100], "ramp": "geometric", "rate_factor": 2.0,
         "rate_step": None, "start_rate": 10.0, "max_rate": 100000.0, "step_s": 2.0, "settle_s": 0.5,
         "warmup_s": 0.5, "confirm": True, "refine_steps": 4, "next_level_start_fraction": 0.25,
         "later_repetition_start_fraction": 0.5, "all_copies": False, "idle_hold_s": 0.0, "connect_rate_per_s": 0.0}
    p.update(changes)
    return p


LISTING = {
    "schema": "sockbench.profiles/1",
    "client_version": "1.2.0",
    "features": ["level-start-rates", "adaptive-level-start"],
    "profiles": [
        geometric("standard"),
        geometric("legacy", ramp="additive", rate_factor=None, rate_step="max(1, 1000/N)", start_rate=1.0,
                  next_level_start_fraction=None),
        geometric("warmup", levels=[50], start_rate=200.0, max_rate=3200.0),
        geometric("sessions", levels=[1000, 100000], rate_factor=5 ** 0.5, start_rate=1.0,
                  next_level_start_fraction=None, later_repetition_start_fraction=None, all_copies=True,
                  idle_hold_s=30.0, connect_rate_per_s=2000.0),
    ],
}


def errors(doc):
    return [e.message for e in VALIDATOR.iter_errors(doc)]


def test_the_schema_is_a_valid_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_a_listing_like_the_clients_is_valid_and_may_carry_new_fields():
    assert errors(LISTING) == []
    grown = copy.deepcopy(LISTING)
    grown["profiles"][0]["some_new_field"] = 1
    assert errors(grown) == []


def broken(path, value):
    doc = copy.deepcopy(LISTING)
    *parents, last = path
    target = doc
    for key in parents:
        target = target[key]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return doc


@pytest.mark.parametrize("path, value, why", [
    (("schema",), "sockbench.profiles/2", "another document kind"),
    (("client_version",), KeyError, "no client version"),
    (("profiles",), [], "no profiles"),
    (("profiles", 2, "name"), "warm", "no warmup profile"),
    (("profiles", 0, "later_repetition_start_fraction"), KeyError, "no later-repetition start fraction"),
    (("profiles", 0, "later_repetition_start_fraction"), 0, "a fraction of 0"),
    (("profiles", 0, "later_repetition_start_fraction"), 1.5, "a fraction above 1"),
    (("profiles", 0, "next_level_start_fraction"), 2, "a next-level fraction above 1"),
    (("profiles", 0, "description"), KeyError, "no description"),
    (("profiles", 0, "levels"), [], "no levels"),
    (("profiles", 0, "levels"), [0, 25], "a level of no clients"),
    (("profiles", 0, "ramp"), "linear", "an unknown ramp"),
    (("profiles", 0, "rate_factor"), None, "geometric without a factor"),
    (("profiles", 0, "rate_factor"), 1.0, "a factor that does not grow"),
    (("profiles", 1, "rate_factor"), 2.0, "additive with a factor"),
    (("profiles", 1, "rate_step"), None, "additive without its step rule"),
    (("profiles", 0, "step_s"), 0, "a window of no time"),
    (("profiles", 0, "refine_steps"), 21, "more refine steps than the client allows"),
    (("profiles", 0, "confirm"), "yes", "confirm not a boolean"),
    (("profiles", 0, "name"), "Standard", "a name that is not a --profile word"),
    (("profiles", 3, "all_copies"), KeyError, "no all-copies flag"),
    (("profiles", 3, "all_copies"), "yes", "all-copies not a boolean"),
    (("profiles", 3, "idle_hold_s"), -1, "a negative idle hold"),
    (("profiles", 3, "connect_rate_per_s"), KeyError, "no connect rate"),
])
def test_a_listing_the_runner_could_not_use_is_refused(path, value, why):
    assert errors(broken(path, value)), why

"""Profiles come from the client jar, never from a copy in bench/, and keep
docs/contract/list-profiles.schema.json."""

import json
import os

import pytest

from factories import profile
from profiles import default_repeat, load_client_profiles, parse_profile_list
from servers import ROOT

JAR = os.path.join(ROOT, "client-java", "target", "sockbench-client.jar")


def listing(**overrides):
    """A list as the client prints it: `quick` (with `overrides`) and the runner's `warmup` pass."""
    profiles = [profile("quick", description="three levels", **overrides), profile("warmup", description="warm-up")]
    return json.dumps({"schema": "sockbench.profiles/1", "client_version": "1.2.0", "features": ["level-start-rates"],
                       "profiles": profiles})


def test_parse_a_profile_list():
    profiles, features = parse_profile_list(listing())
    assert profiles["quick"]["levels"] == [25, 100, 500]
    assert features == ["level-start-rates"]


@pytest.mark.parametrize("text,match", [
    ("not json", "did not print JSON"),
    ('{"schema": "other"}', "not a sockbench.profiles/1"),
    ('{"schema": "sockbench.profiles/1", "client_version": "1", "features": [], "profiles": []}',
     "profiles: .* should be non-empty"),
    (listing().replace('"levels"', '"levelz"'), "profile 'quick': 'levels' is a required property"),
    # A fraction or null (a profile that starts every repetition at its start rate): 1.5 is neither.
    (listing(later_repetition_start_fraction=1.5),
     r"profile 'quick'.later_repetition_start_fraction: 1.5 is not valid under any of the given schemas"),
    (listing().replace('"warmup"', '"warm"'), "no `warmup` profile"),
])
def test_malformed_profile_lists_are_refused(text, match):
    with pytest.raises(ValueError, match=match):
        parse_profile_list(text)


def test_standard_repeats_three_times_the_rest_once():
    assert default_repeat("standard") == 3
    assert default_repeat("smoke") == default_repeat("quick") == 1


@pytest.mark.skipif(not os.path.exists(JAR), reason="client jar missing: run `make setup-java`")
def test_the_real_client_lists_the_documented_profiles_in_the_shared_schema():
    client = load_client_profiles("java", JAR)  # ValueError if its output breaks the schema
    assert {"smoke", "quick", "standard", "legacy", "full", "warmup", "sessions"} <= set(client.profiles)


def test_a_jar_without_list_profiles_is_refused_with_the_fix(tmp_path):
    not_a_jar = tmp_path / "old.jar"
    not_a_jar.write_bytes(b"not a jar")
    with pytest.raises(ValueError, match="make setup-java"):
        load_client_profiles("java", str(not_a_jar))

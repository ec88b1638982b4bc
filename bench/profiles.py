"""Sweep profiles, as the client defines them.

The client (client-java, `Profile.java`) owns the profiles: their names and
parameters. The runner asks it (`java -jar client.jar --list-profiles`, one
JSON document, shape in /work/brief/client-requests-16.md) instead of keeping
a copy. A client jar built before that option existed cannot answer; then the
runner says so once and uses FALLBACK_PROFILES below.

TODO(issue 16): delete FALLBACK_PROFILES once every supported jar has
--list-profiles. It describes the jars from before that option (Profile.java
as of the 2026-11-23 reference set: no confirm/refine, every level from
start_rate), so it is only ever used with such a jar; `make bench-*` rebuilds
the jar from source first, so in practice only a hand-run run_bench.py with an
old --client-jar meets it.

How many repetitions a profile gets by default is the runner's business, not
the client's: DEFAULT_REPEAT.
"""

import json
import subprocess

# Repetitions per profile when REPEAT= is not given: the short profiles are for
# trying things out; `standard` makes published figures, which need a spread.
DEFAULT_REPEAT = {"standard": 3}


def default_repeat(profile_name):
    return DEFAULT_REPEAT.get(profile_name, 1)


def _p(name, levels, ramp, rate_factor, start_rate, step_s, settle_s, warmup_s, max_rate):
    return {"name": name, "levels": levels, "ramp": ramp, "rate_factor": rate_factor,
            "rate_step": "max(1, 1000/N)" if ramp == "additive" else None,
            "start_rate": start_rate, "step_s": step_s, "settle_s": settle_s, "warmup_s": warmup_s,
            "max_rate": max_rate, "confirm": False, "refine_steps": 0, "next_level_start_fraction": None}


_LEGACY_LEVELS = [25, 50, 75, 100, 200, 300, 400, 500, 750, 1000, 1250, 1500, 2000]
FALLBACK_PROFILES = {
    "smoke": _p("smoke", [2, 4], "geometric", 2.0, 20, 0.5, 0.2, 0.2, 80),
    "quick": _p("quick", [25, 100, 500], "geometric", 1.5, 10, 2, 0.5, 0.5, 100_000),
    "standard": _p("standard", [25, 50, 100, 200, 500, 1000, 2000], "geometric", 1.25, 10, 3, 1, 0.5, 100_000),
    "legacy": _p("legacy", _LEGACY_LEVELS, "additive", None, 1, 3, 1, 0.5, 1_000_000),
    "full": _p("full", _LEGACY_LEVELS, "geometric", 1.25, 10, 3, 1, 0.5, 100_000),
}

REQUIRED_KEYS = ("name", "levels", "ramp", "rate_factor", "start_rate", "step_s", "settle_s", "warmup_s", "max_rate")


class ClientProfiles:
    """The profiles and optional features of one client jar."""

    def __init__(self, profiles, features, from_client, note=""):
        self.profiles = profiles          # name -> dict
        self.features = set(features)     # e.g. {"level-start-rates"}
        self.from_client = from_client    # False: FALLBACK_PROFILES
        self.note = note                  # why the fallback is in use

    def get(self, name):
        """The profile called `name`; ValueError listing the known ones otherwise."""
        if name not in self.profiles:
            raise ValueError(f"unknown profile {name!r}; the client knows: {', '.join(self.profiles)}")
        return self.profiles[name]


def parse_profile_list(text):
    """(profiles by name, features) from the `--list-profiles` JSON text; ValueError if malformed."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--list-profiles did not print JSON: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("schema") != "sockbench.profiles/1":
        raise ValueError("--list-profiles output is not a sockbench.profiles/1 document")
    profiles = {}
    for p in doc.get("profiles", []):
        missing = [k for k in REQUIRED_KEYS if k not in p]
        if missing:
            raise ValueError(f"profile {p.get('name', '?')!r} lacks {', '.join(missing)}")
        profiles[p["name"]] = p
    if not profiles:
        raise ValueError("--list-profiles listed no profiles")
    return profiles, doc.get("features", [])


def load_client_profiles(java, jar, timeout_s=60):
    """Ask the jar for its profiles; fall back (with the reason in .note) if it cannot tell."""
    try:
        proc = subprocess.run([java, "-jar", jar, "--list-profiles"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return ClientProfiles(FALLBACK_PROFILES, [], False, f"could not run the client ({exc})")
    if proc.returncode != 0:
        return ClientProfiles(FALLBACK_PROFILES, [], False,
                              "this client jar has no --list-profiles (rebuild it with `make setup-java` "
                              "once client-java provides it)")
    try:
        profiles, features = parse_profile_list(proc.stdout)
    except ValueError as exc:
        return ClientProfiles(FALLBACK_PROFILES, [], False, str(exc))
    return ClientProfiles(profiles, features, True)

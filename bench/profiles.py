"""Sweep profiles, as the client defines them.

The client (client-java, `Profile.java`) owns the profiles: their names and
parameters. The runner asks it (`java -jar client.jar --list-profiles`, one
`sockbench.profiles/1` JSON document, described in client-java/README.md)
instead of keeping a copy. A jar that cannot answer (built before that option
existed) is refused with the command that rebuilds it: there is no second list
here to drift from the client's.

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



REQUIRED_KEYS = ("name", "levels", "ramp", "rate_factor", "start_rate", "step_s", "settle_s", "warmup_s", "max_rate")


class ClientProfiles:
    """The profiles and optional features of one client jar."""

    def __init__(self, profiles, features):
        self.profiles = profiles          # name -> dict
        self.features = set(features)     # e.g. {"level-start-rates"}

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
    """Ask the jar for its profiles; ValueError saying what to do when it cannot tell."""
    rebuild = "rebuild the client with `make setup-java`"
    try:
        proc = subprocess.run([java, "-jar", jar, "--list-profiles"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ValueError(f"could not run the client {jar} ({exc}); {rebuild}") from exc
    if proc.returncode != 0:
        raise ValueError(f"the client {jar} has no --list-profiles (built before it existed?); {rebuild}")
    try:
        profiles, features = parse_profile_list(proc.stdout)
    except ValueError as exc:
        raise ValueError(f"{exc}; {rebuild}") from exc
    return ClientProfiles(profiles, features)

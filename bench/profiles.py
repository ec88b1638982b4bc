"""Sweep profiles, as the client defines them.

The client (client-java, `Profile.java`) owns the profiles: their names and
parameters. The runner asks it (`java -jar client.jar --list-profiles`, one
`sockbench.profiles/1` JSON document whose shape is
docs/contract/list-profiles.schema.json) instead of keeping a copy, and checks
the answer against that schema. A jar that cannot answer (built before that
option existed, or before a field the schema requires) is refused with the
command that rebuilds it: there is no second list here to drift from the
client's.

How many repetitions a profile gets by default is the runner's business, not
the client's: DEFAULT_REPEAT.
"""

import json
import os
import subprocess

import jsonschema

# Repetitions per profile when REPEAT= is not given: the short profiles are for
# trying things out; `standard` makes published figures, which need a spread.
DEFAULT_REPEAT = {"standard": 3}


def default_repeat(profile_name):
    return DEFAULT_REPEAT.get(profile_name, 1)


#: The shape of `--list-profiles` output, shared with the client that prints it.
SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "contract",
                           "list-profiles.schema.json")
with open(SCHEMA_PATH, encoding="utf-8") as _f:
    VALIDATOR = jsonschema.Draft202012Validator(json.load(_f))


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


def schema_problem(doc):
    """The first way `doc` breaks list-profiles.schema.json, in words; None if it keeps it."""
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if not errors:
        return None
    error = errors[0]
    path = list(error.absolute_path)
    if error.validator == "contains":
        return "it lists no `warmup` profile"
    if len(path) >= 2 and path[0] == "profiles":
        name = doc["profiles"][path[1]].get("name", "?") if isinstance(doc["profiles"][path[1]], dict) else "?"
        where = f"profile {name!r}" + "".join(f".{p}" for p in path[2:])
    else:
        where = ".".join(map(str, path)) or "the document"
    return f"{where}: {error.message}"


def parse_profile_list(text):
    """(profiles by name, features) from the `--list-profiles` JSON text; ValueError if malformed."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--list-profiles did not print JSON: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("schema") != "sockbench.profiles/1":
        raise ValueError("--list-profiles output is not a sockbench.profiles/1 document")
    problem = schema_problem(doc)
    if problem:
        raise ValueError(f"--list-profiles output breaks docs/contract/list-profiles.schema.json: {problem}")
    return {p["name"]: p for p in doc["profiles"]}, doc["features"]


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

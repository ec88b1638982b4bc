"""Churn in the runner (`CHURN=5%`, the client's `--churn 5`; docs/sessions.md "Churn"): the value read
and checked once, the client flag it becomes, the refusal of a profile it cannot go with, and how a result
says it ran with churn.

Churn only means something under the all-copies verdict: the client then times
every copy at every steady session, so what the reconnect storm does to the
OTHER sessions shows in their latency. A profile that times only each sender's
own copy would report nothing of it, so the run is refused before anything starts.

The largest valid percentage is not written here: it is `parameters.churn_pct`'s
maximum in results/schema.json, the contract the client's result must keep (the
client refuses the same range itself).
"""

import json
import re

from results_io import SCHEMA_PATH

#: "5", "5%", "2.5 %": a plain decimal number, optionally followed by a percent sign.
_PCT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*%?\s*")


def max_pct():
    """The largest churn percentage a result may carry: results/schema.json's parameters.churn_pct maximum."""
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        return json.load(f)["properties"]["parameters"]["properties"]["churn_pct"]["maximum"]


def parse_pct(text):
    """`CHURN=` as given ("5%", "5", "" or None) -> the percentage as a float, or None for no churn.
    ValueError (one line naming the range) for anything that is not a number in 0 < PCT <= max_pct()."""
    if text is None or not text.strip():
        return None
    top = max_pct()
    match = _PCT.fullmatch(text)
    pct = float(match.group(1)) if match else None
    if pct is None or not 0 < pct <= top:
        raise ValueError(f"CHURN={text}: the share of each level's sessions that reconnect every second, a number "
                         f"with 0 < CHURN <= {top:g} (e.g. CHURN=5% or CHURN=5; leave it out for no churn)")
    return pct


def pct_text(pct):
    """5.0 -> "5 %", 2.5 -> "2.5 %": the percentage as the runner's lines print it."""
    return f"{pct:g} %"


def client_args(pct):
    """The client's flags for a churn of `pct` percent ([] for None: the client's default, no churn)."""
    return [] if pct is None else ["--churn", f"{pct:g}"]


def all_copies_chosen(profile, extra_client_args=()):
    """Whether the client will time every copy: the last `--all-copies` / `--no-all-copies` among the extra
    client flags (CLIENT_ARGS=) decides, else the profile's `all_copies` (client `--list-profiles`)."""
    choice = bool(profile.get("all_copies", False))
    for arg in extra_client_args:
        if arg in ("--all-copies", "--no-all-copies"):
            choice = arg == "--all-copies"
    return choice


def refusal(pct, profile, extra_client_args=()):
    """The one-line refusal of a churn run the client would not judge by every copy, else None."""
    if pct is None or all_copies_chosen(profile, extra_client_args):
        return None
    return (f"CHURN={pct:g} needs the all-copies verdict (PROFILE=sessions, or CLIENT_ARGS=--all-copies): profile "
            f"{profile['name']} times only each sender's own copy, so churn's cost to the other sessions would "
            "not show")


def run_pct(doc):
    """The churn a result document ran with, percent (0 = none: absent in every file before schema v5)."""
    return (doc.get("parameters") or {}).get("churn_pct") or 0

"""The runner's scale-out knobs: `--workers N` and `--broker URL|private`.

The servers parse `--broker` fully (docs/protocol.md §6); this checks only
enough to refuse a typo before anything runs (usage error, exit 2) and to
decide whether the runner starts a private redis-server itself:

- WORKERS > 1 and no BROKER: a private Redis (the servers refuse several
  workers without a broker, and a benchmark must not depend on a Redis the
  user happens to have running);
- BROKER=private: a private Redis even for one worker (the "1 worker with
  broker" row of the relay-cost table);
- BROKER=redis://HOST[:PORT][/DB]: that Redis, as given.

`--proxy NAME` (PROXY=haproxy) is checked by the proxy front's own rule
(docs/contract/sockbench_contract/proxy_front.py, the one list of proxies),
which make's serve-* targets run too.
"""

import urllib.parse

from sockbench_contract.proxy_front import check_settings

MAX_WORKERS = 64   # docs/protocol.md §6: --workers 1-64
PRIVATE = "private"


def check_workers(n):
    """n as an int in 1-64; ValueError otherwise."""
    if not 1 <= n <= MAX_WORKERS:
        raise ValueError(f"--workers must be in 1-{MAX_WORKERS}, got {n}")
    return n


def check_broker(text):
    """"private", or a redis://HOST[:PORT][/DB] URL returned as given; ValueError naming what is wrong."""
    if text == PRIVATE:
        return text
    url = urllib.parse.urlsplit(text)
    if url.scheme != "redis" or not url.hostname:
        raise ValueError(f"--broker must be redis://HOST[:PORT][/DB] or 'private', got {text!r}")
    try:
        port = url.port  # ValueError when out of range or not a number
    except ValueError:
        raise ValueError(f"--broker {text!r}: bad port") from None
    if port == 0:
        raise ValueError(f"--broker {text!r}: bad port")
    db = url.path.lstrip("/")
    if db and not (db.isdigit() and int(db) <= 15):
        raise ValueError(f"--broker {text!r}: DB must be 0-15")
    if url.query or url.fragment:
        raise ValueError(f"--broker {text!r}: no query or fragment expected")
    return text


def wants_private_broker(workers, broker):
    """True when the runner must start its own redis-server for each repetition."""
    return broker == PRIVATE or (broker is None and workers > 1)


def check_proxy(proxy, workers):
    """PROXY= with WORKERS=: ValueError (a one-line refusal, exit 2) for an unknown proxy or fewer
    than 2 workers. The broker is never missing here: the runner starts a private one."""
    check_settings(proxy, workers, broker_required=False)

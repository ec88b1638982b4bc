"""Reason → count tallies as the client writes them (churn reconnect failures, slow readers cut off:
`{"timeout": 2, "EOF": 1}`), added up over a level's points and said in one line, the most frequent first."""


def summed(tallies):
    """One tally from several (each {reason: count}, or None for a point without one), the most frequent
    reason first (ties keep the order they were first met)."""
    total = {}
    for tally in tallies:
        for reason, n in (tally or {}).items():
            total[reason] = total.get(reason, 0) + n
    return dict(sorted(total.items(), key=lambda item: -item[1]))


def text(counts, word):
    """"12 failed: Cannot assign requested address (10), timeout (2)" for word " failed"; "0 failed" when
    there are none. word: what follows the count."""
    out = f"{sum(counts.values()):,}{word}"
    return out + (": " + ", ".join(f"{reason} ({n:,})" for reason, n in counts.items()) if counts else "")

"""The one Python parser of a server's READY line (docs/protocol.md).

A contract server prints exactly one line on stdout once it listens:
`READY <url> key=value key=value ...` (e.g. `READY http://127.0.0.1:8080
server=sockbench-tornado runtime=pypy mode=fast`). Standard library only and
no other imports from bench/, so any Python test in the repository can use it
by putting bench/ on sys.path.
"""


def parse_ready_line(line):
    """Split `READY <url> k=v k=v` into (url, {k: v}); ValueError on anything else."""
    parts = line.strip().split(" ")
    if len(parts) < 2 or parts[0] != "READY" or not parts[1].startswith("http"):
        raise ValueError(f"not a READY line: {line.strip()!r}")
    fields = {}
    for token in parts[2:]:
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise ValueError(f"bad key=value token {token!r} in READY line")
        fields[key] = value
    return parts[1], fields

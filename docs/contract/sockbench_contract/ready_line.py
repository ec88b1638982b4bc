"""The one Python parser of a server's READY line (docs/protocol.md §2).

A contract server prints exactly one line on stdout once it listens:
`READY <base-url> key=value key=value ...` (e.g. `READY http://127.0.0.1:8080
server=sockbench-tornado runtime=pypy mode=fast`). The bench reads it to learn
the URL and what runs; the conformance suite (docs/contract/conformance)
reads it with this same function to check a server keeps the contract, so the
rules below are the contract's, not a lenient subset. The cases both this
parser and the Java one (client-java ReadyLine) are tested against are in
docs/contract/ready-line-cases.json.
"""

import re

#: `http://<host>:<port>`, no path, no trailing slash (IPv6 hosts bracketed).
BASE_URL_RE = re.compile(r"^http://[^/\s]+:\d+$")
#: What a key may be; values are any non-empty run of non-space characters.
KEY_RE = re.compile(r"^[a-z0-9_.-]+$")


def parse_ready_line(line):
    """Split `READY <url> k=v k=v` into (url, {k: v}); ValueError on anything else.

    `line` may end in a newline; tokens are separated by single spaces (a
    doubled space is an empty token, which is rejected).
    """
    text = line.rstrip("\r\n")
    if not text.startswith("READY "):
        raise ValueError(f"not a READY line: {text!r}")
    url, *tokens = text[len("READY "):].split(" ")
    if not BASE_URL_RE.match(url):
        raise ValueError(f"bad base url {url!r} in READY line")
    fields = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or not KEY_RE.match(key) or not value:
            raise ValueError(f"bad key=value token {token!r} in READY line")
        fields[key] = value
    return url, fields

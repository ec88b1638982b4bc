"""COMPRESSION=: whether each websocket session asks for RFC 7692 permessage-deflate
(docs/compression.md).

The registry says which servers can (the `compression` knob, docs/contract/server-registry.json,
whose `$comment` says why an entry cannot); the runner refuses, in one line and before anything
starts, a run that names one that cannot, and passes `--compression` to the servers and to every
client run and warm-up pass. The client checks the server's answer: a server that does not accept
the offer fails the session's open, so a server run by hand (`--url`) that cannot compress fails
at its first level, naming why. The result records it (`parameters.compression`) and its file
name and label say so.
"""

import os
import sys

# docs/contract holds the registry's one reader; results_io imports this module (file_tag) in tools and
# tests that never put it on the path themselves (the sockjs-go peer's smoke sweep did not).
_CONTRACT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "contract")
if _CONTRACT not in sys.path:
    sys.path.insert(0, _CONTRACT)

from sockbench_contract.registry import COMPRESSIONS  # noqa: E402

#: No extension offered: every run before COMPRESSION= existed, and the default.
NONE = "none"


def refusal(compression, variants, transports_spec, byo_server):
    """One line saying why COMPRESSION=`compression` cannot run with these servers and transports,
    or None when it can (`server_refusal`, then `transports_refusal`)."""
    return server_refusal(compression, variants, byo_server) or transports_refusal(compression, transports_spec)


def server_refusal(compression, variants, byo_server):
    """One line when the value is unknown or a server of the run cannot compress, else None; asked first
    thing, before the runner looks for the client or the servers. variants: the run's registry entries
    (ignored with --url: the runner does not start that server; the client's open fails when it does not
    accept the offer)."""
    if compression not in COMPRESSIONS:
        return f"COMPRESSION={compression}: one of {', '.join(COMPRESSIONS)}"
    if compression == NONE or byo_server:
        return None
    unable = [v.name for v in variants if not v.has_compression]
    if unable:
        return (f"COMPRESSION={compression}: {', '.join(unable)} cannot compress websockets "
                "(docs/compression.md says which servers can and why the others cannot; `make servers` marks them)")
    return None


def transports_refusal(compression, transports_spec):
    """One line when HTTP transports would run with compression (it is a websocket extension), else None;
    asked once TRANSPORTS= is in the client's canonical form."""
    if compression in (None, NONE) or transports_spec == "websocket":
        return None
    return f"COMPRESSION={compression} compresses websocket sessions only: not with TRANSPORTS={transports_spec}"


def client_args(compression):
    """The client flags for COMPRESSION=`compression` (none for no compression: the client's default)."""
    return [] if compression == NONE else ["--compression", compression]


def file_tag(doc):
    """The file-name tag of a result's compression (parameters.compression, optional in schema v6):
    '' without compression (and for every older file), `deflate` with permessage-deflate."""
    return "deflate" if doc.get("parameters", {}).get("compression", NONE) == "permessage-deflate" else ""

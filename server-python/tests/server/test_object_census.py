"""tools/object_census.py end to end at a small size (30 sessions), on this interpreter: each
idle session shows one of each of our per-session objects, and none of the HTTP upgrade's."""
from __future__ import annotations

import os
import re
import subprocess
import sys

TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "tools")
ROOT = os.path.join(TOOLS, "..")


def test_object_census_of_thirty_idle_websocket_sessions():
    done = subprocess.run([sys.executable, os.path.join(TOOLS, "object_census.py"),
                           "--sessions", "30"], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=os.path.abspath(ROOT)))
    assert done.returncode == 0, done.stderr
    per_session = {m.group(1): float(m.group(2))
                   for m in re.finditer(r"^\| `([^`]+)` \| ([-0-9.]+) \|", done.stdout, re.M)}
    for ours in ("sockbench_server.protocol.session.Session",
                 "sockbench_server.tornado_io.websocket.FramedWebSocketHandler",
                 "sockbench_server.tornado_io.rfc6455.StrictProtocol13",
                 "sockbench_server.tornado_io.tornado_private.AccountedIOStream"):
        assert per_session.get(ours) == 1.0, (ours, done.stdout)
    # the server's own socket; the client's are subtracted
    assert per_session.get("socket.socket") == 1.0, done.stdout
    assert not {name for name in per_session if name.startswith(("tornado.httputil.",
                                                                  "tornado.http1connection."))}

"""The server a tool measures, and what every tool does around it: start it
through the one launcher (``sockbench_contract.server_launch``) or attach to
one already running (``--url`` with ``--pid``), read its memory through the
one /proc reader (``sockbench_contract.procfs``), report RSS, and make room
for many sockets on the client side."""
from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Dict, Optional, Sequence, Tuple

# The launcher and the /proc reader are shared with the bench and the
# conformance suite; they live in docs/contract, not in this component.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "docs", "contract"))

from sockbench_contract.procfs import rss_bytes  # noqa: E402  (re-exported for the tools)
from sockbench_contract.server_launch import ServerProcess  # noqa: E402
from sockbench_server import open_files  # noqa: E402

__all__ = ["MiB", "ServerProcess", "add_server_args", "check_server_args", "raise_fd_limit",
           "rss_bytes", "rss_summary", "start_or_attach", "start_server", "stop_server"]

MiB = 1024 * 1024


def start_server(argv: Sequence[str]) -> ServerProcess:
    """Start ``argv`` with ``--port 0`` added and wait for its READY line."""
    server = ServerProcess(list(argv) + ["--port", "0"])
    server.start()
    return server


def stop_server(server: ServerProcess) -> str:
    """SIGTERM (a kill if it lingers); everything it wrote to stderr, which
    the tools count lines of. How it exited is not the tools' question."""
    server.stop(raise_on_error=False)
    return server.stderr_text()


def add_server_args(p: argparse.ArgumentParser) -> None:
    """--server COMMAND, or --url of a running server with its --pid: what
    start_or_attach takes."""
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--server", metavar="COMMAND",
                     help="server command to start (--port 0 is added)")
    src.add_argument("--url", help="base URL of a running server (needs --pid)")
    p.add_argument("--pid", type=int, help="pid of the running server (with --url)")


def check_server_args(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """What add_server_args' options need once parsed and argparse cannot say
    itself: a running server (--url) is measured through its memory, so its
    --pid must be given too."""
    if args.url and args.pid is None:
        p.error("--url needs --pid (whose memory to sample)")


def start_or_attach(server_command: Optional[str], url: Optional[str],
                    pid: Optional[int]) -> Tuple[Optional[ServerProcess], str, int]:
    """The server to measure, as ``(server, url, pid)``: started from
    ``server_command`` (a shell-quoted command; its READY line is printed),
    else the running one at ``url`` whose process is ``pid`` (server None)."""
    if server_command:
        server = start_server(shlex.split(server_command))
        print(server.ready_line)
        return server, server.url, server.pid
    assert url is not None and pid is not None  # add_server_args' and check_server_args' checks
    return None, url, pid


def rss_summary(r: Dict) -> str:
    """The RSS line of a run's report, from its ``before``/``peak``/``after`` (bytes)."""
    return ("RSS before -> peak -> after (MiB): %.0f -> %.0f -> %.0f  (peak - before: %.1f MiB)"
            % (r["before"] / MiB, r["peak"] / MiB, r["after"] / MiB,
               (r["peak"] - r["before"]) / MiB))


def raise_fd_limit(want: int, tool: str) -> None:
    """At least ``want`` file descriptors for this process, or exit saying so
    (the server's own way of raising the limit, sockbench_server/open_files.py)."""
    limit = open_files.raise_limit(want)
    if limit is not None and limit < want:
        raise SystemExit("%s: cannot raise the descriptor limit to %d (it stays at %d); "
                         "raise 'ulimit -n'" % (tool, want, limit))

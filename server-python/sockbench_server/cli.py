"""Command line of ``python -m sockbench_server`` (docs/protocol.md section 1)."""
from __future__ import annotations

import argparse
import logging
import functools
import math
import os
import re
import sys
from typing import Callable, List, Optional

from .protocol.codecs import CODEC_NAMES, CodecError, select_codec
from .protocol.options import COMPRESSIONS, NO_COMPRESSION
from .protocol.transports import DEFAULT_SOCKJS_URL
from .protocol.session_budget import (MAX_SESSIONS, MIN_SESSIONS, SESSION_BYTES,
                                      default_max_sessions, max_sessions_for_share)
from . import heap_snapshots, open_files
from .heap_snapshots import FRAMES as HEAP_FRAMES
from .scaleout.broker_url import BrokerUrlError, parse_broker_url
from .scaleout.settings import MAX_WORKERS, ScaleOut, worker_from_environment
from .tornado_io.shedding import DEFAULT_MAX_TOTAL_BUFFER

LOG_LEVELS = ("debug", "info", "warning", "error")


def _int_between(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    """An argparse type: a decimal integer from ``low`` to ``high``."""
    def parse(value: str) -> int:
        try:
            n = int(value, 10)
        except ValueError:
            raise argparse.ArgumentTypeError("not an integer: %r" % value) from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError("must be %d-%d%s, got %d" % (low, high, unit, n))
        return n
    return parse


_port = _int_between(0, 65535)
_bytes = _int_between(1024, 2 ** 40, " bytes")
_workers = _int_between(1, MAX_WORKERS)
_sessions = _int_between(MIN_SESSIONS, MAX_SESSIONS)
_expected_sessions = _int_between(open_files.MIN_EXPECTED_SESSIONS,
                                  open_files.MAX_EXPECTED_SESSIONS, " sessions")


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % value) from None
    if not (seconds > 0 and math.isfinite(seconds)):
        raise argparse.ArgumentTypeError("must be a number > 0, got %r" % value)
    return seconds


def _status_path(value: str) -> str:
    directory = os.path.dirname(os.path.abspath(value))
    if not value or not os.path.isdir(directory):
        raise argparse.ArgumentTypeError("no such directory: %r" % directory)
    return value


# What a browser may be pointed at from <script src="...">: an absolute http(s)
# URL or a path on the server's own origin, nothing that would need escaping.
_SOCKJS_URL_RE = re.compile(r'^(https?://[^\s"<>]+|/[^\s"<>]*)$')


def _sockjs_url(value: str) -> str:
    if len(value) > 2048 or not _SOCKJS_URL_RE.match(value):
        raise argparse.ArgumentTypeError(
            "expected an http:// or https:// URL or a path starting with '/' (at most 2048 "
            "characters; no spaces, quotes or angle brackets), got %r" % value)
    return value


def _heap_directory(value: str) -> str:
    if not os.path.isdir(value):
        raise argparse.ArgumentTypeError("no such directory: %r" % value)
    reason = heap_snapshots.unavailable_reason()
    if reason:
        raise argparse.ArgumentTypeError(reason)
    return value


def _broker(value: str):
    try:
        return parse_broker_url(value)
    except BrokerUrlError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sockbench_server",
        description="sockbench's SockJS 0.3.3 server on Tornado. Mounts /broadcast, "
                    "/echo, /close, /disabled_websocket_echo and /cookie_needed_echo; "
                    "prints 'READY <url> key=value...' on stdout once listening; "
                    "logs go to stderr; SIGTERM/SIGINT close every session and exit 0.",
        allow_abbrev=False,
    )
    p.add_argument("--host", default="127.0.0.1", metavar="HOST",
                   help="address to listen on (default: %(default)s)")
    p.add_argument("--port", type=_port, default=8080, metavar="PORT",
                   help="TCP port, 0 picks a free one (default: %(default)s)")
    p.add_argument("--heartbeat", type=_seconds, default=25.0, metavar="SECONDS",
                   help="send 'h' after this many seconds without other output "
                        "(default: 25)")
    p.add_argument("--log-level", choices=LOG_LEVELS, default="warning", metavar="LEVEL",
                   help="one of %s (default: %%(default)s)" % ", ".join(LOG_LEVELS))
    p.add_argument("--json", choices=CODEC_NAMES, default="json", metavar="CODEC",
                   help="JSON library for SockJS frames: %s (default: %%(default)s); "
                        "one that is not installed or breaks the SockJS escaping "
                        "rules is refused at start" % ", ".join(CODEC_NAMES))
    p.add_argument("--naive", action="store_true",
                   help="straightforward broadcast: encode and write each message once "
                        "per recipient (the baseline the fast path is measured against)")
    p.add_argument("--compression", choices=COMPRESSIONS, default=NO_COMPRESSION,
                   metavar="none|permessage-deflate",
                   help="websocket compression: permessage-deflate (RFC 7692) is accepted when "
                        "a client offers it, and every message to that session is then "
                        "compressed with its own zlib context (~300 KB of memory per session "
                        "with zlib's defaults; docs/compression.md) (default: %(default)s)")
    p.add_argument("--max-session-buffer", type=_bytes, default=1024 * 1024,
                   metavar="BYTES",
                   help="unsent output one session may hold (its queue plus its "
                        "socket's unsent bytes) before it is closed with 1008 as a "
                        "client that does not read; 1024 to 2^40 (default: 1048576 = 1 MiB)")
    p.add_argument("--max-total-buffer", type=_bytes, default=DEFAULT_MAX_TOTAL_BUFFER,
                   metavar="BYTES",
                   help="memory the process may grow by while overloaded: when its unsent "
                        "output passes half of this the server stops reading from clients "
                        "until 3/8 is left (the other half covers object overheads and "
                        "allocator slack); 1024 to 2^40 (default: 67108864 = 64 MiB)")
    p.add_argument("--header-timeout", type=_seconds, default=10.0, metavar="SECONDS",
                   help="close a connection whose request headers are not complete "
                        "this many seconds after it started sending them, or that sits "
                        "idle between requests that long (default: 10)")
    p.add_argument("--max-sessions", type=_sessions, default=None, metavar="N",
                   help="sessions one process may hold, every transport together; beyond "
                        "it new sessions get HTTP 503; %d-%d (default: --max-total-buffer / "
                        "%d bytes per session = %d with the default budget)"
                        % (MIN_SESSIONS, MAX_SESSIONS, SESSION_BYTES,
                           default_max_sessions(DEFAULT_MAX_TOTAL_BUFFER)))
    p.add_argument("--sessions", type=_expected_sessions, default=None, metavar="N",
                   help="sessions the server (all its workers together) is expected to hold, "
                        "%d-%d: at start the soft open-files limit is raised to the hard one "
                        "and the server refuses to start (one line, exit 2) when one process's "
                        "share, ceil(N / workers) + %d, does not fit; without --max-sessions "
                        "the session budget grows to hold that share (default: none, no check)"
                        % (open_files.MIN_EXPECTED_SESSIONS, open_files.MAX_EXPECTED_SESSIONS,
                           open_files.SPARE))
    p.add_argument("--heap-snapshots", type=_heap_directory, default=None, metavar="DIR",
                   help="CPython only, for tools/heap_breakdown.py: trace Python allocations "
                        "from READY on (tracemalloc, %d frames) and write a snapshot to DIR at "
                        "READY and on each SIGUSR2; needs --workers 1 (default: off, "
                        "tracemalloc not even imported)" % HEAP_FRAMES)
    p.add_argument("--status-file", type=_status_path, default=None, metavar="PATH",
                   help="keep the pids of the workers accepting connections in this JSON "
                        "file, replaced atomically on every change and removed at exit "
                        "(docs/protocol.md section 6.2; default: none)")
    p.add_argument("--sockjs-url", type=_sockjs_url, default=DEFAULT_SOCKJS_URL, metavar="URL",
                   help="where the /iframe.html page of every app loads sockjs-client from "
                        "(the iframe transports need the same sockjs-client version as the "
                        "page): an http(s) URL or a path starting with '/' (default: "
                        "%(default)s)")
    p.add_argument("--workers", type=_workers, default=1, metavar="N",
                   help="worker processes sharing the listening port (SO_REUSEPORT), "
                        "1-%d; more than 1 needs --broker and serves websocket "
                        "transports only (default: 1)" % MAX_WORKERS)
    p.add_argument("--broker", type=_broker, default=None, metavar="URL",
                   help="redis://HOST[:PORT][/DB] (port 6379, DB 0-15, default 0): every "
                        "server process pointed at the same Redis and DB is one broadcast "
                        "domain (docs/protocol.md section 6; default: none)")
    return p


def _open_files_refusal(sessions: int, workers: int) -> Optional[str]:
    """Raise the open-files limit, then the line to refuse with when one
    serving process's share of ``sessions`` still does not fit (None: it
    fits, or the platform has no limit to check, which is said on stderr)."""
    limit = open_files.raise_limit()
    if limit is None:
        print("sockbench-tornado: this platform has no open-files limit to check; "
              "--sessions %d taken as is" % sessions, file=sys.stderr, flush=True)
        return None
    return open_files.refusal("sockbench-tornado", sessions, workers, limit)


def _max_sessions(args: argparse.Namespace, workers: int) -> Optional[int]:
    """--max-sessions as given; else, with --sessions, a budget that holds
    this process's share; else None (the memory budget's default)."""
    if args.max_sessions is not None or args.sessions is None:
        return args.max_sessions
    return max_sessions_for_share(open_files.share(args.sessions, workers),
                                  args.max_total_buffer)


def main(argv: Optional[List[str]] = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    args = build_parser().parse_args(argv)
    if args.heap_snapshots is not None and args.workers > 1:
        print("sockbench-tornado: --heap-snapshots needs --workers 1: its snapshots are one "
              "process's heap", file=sys.stderr, flush=True)
        return 2
    if args.workers > 1 and args.broker is None:
        # One line, exit 2, nothing opened (docs/protocol.md section 6).
        print("sockbench-tornado: --workers %d needs --broker redis://HOST:PORT/DB: the "
              "workers meet through Redis to broadcast to each other's sessions"
              % args.workers, file=sys.stderr, flush=True)
        return 2
    try:
        role = worker_from_environment()
    except ValueError as e:
        print("sockbench-tornado: %s" % e, file=sys.stderr, flush=True)
        return 2
    if role is not None:
        scale = ScaleOut(workers=role[1], broker=args.broker, worker_index=role[0],
                         standby=role[0] == 0)
    else:
        scale = ScaleOut(workers=args.workers, broker=args.broker)
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, args.log_level.upper()),
                        format=scale.log_format)
    if args.sessions is not None:
        refused = _open_files_refusal(args.sessions, scale.workers)
        if refused:
            print(refused, file=sys.stderr, flush=True)
            return 2
    try:
        codec = select_codec(args.json)
    except CodecError as e:
        print("sockbench-tornado: %s" % e, file=sys.stderr, flush=True)
        return 1
    if scale.workers > 1 and not scale.is_worker:
        import asyncio

        from .scaleout.workers import supervise
        return asyncio.run(supervise(argv, host=args.host, port=args.port, scale=scale,
                                     status_file=args.status_file))
    # Imported late so that --help and usage errors stay fast.
    from .apps import default_mounts
    from .protocol.options import FAST, NAIVE
    from .tornado_io.server import ServerLimits, serve

    limits = ServerLimits(max_session_buffer=args.max_session_buffer,
                          max_total_buffer=args.max_total_buffer,
                          header_timeout=args.header_timeout,
                          max_sessions=_max_sessions(args, scale.workers))
    mounts = functools.partial(default_mounts, sockjs_url=args.sockjs_url)
    return serve(host=args.host, port=args.port, heartbeat=args.heartbeat, codec=codec,
                 mounts=mounts, limits=limits,
                 broadcast=NAIVE if args.naive else FAST, compression=args.compression,
                 scale=scale,
                 status_file=args.status_file if role is None else None,
                 after_ready=(functools.partial(heap_snapshots.start, args.heap_snapshots)
                              if args.heap_snapshots is not None else None))

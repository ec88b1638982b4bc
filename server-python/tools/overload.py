"""Overload and recover: does the server's memory stay bounded when it is
sent far more than it can deliver, and how soon does it serve light load
again?

The scenario (``overload_scenario.py``), one client thread driving every
socket with a selector:

1. open K framed websocket sessions on ``/broadcast``;
2. sample the server's resident memory (``/proc/PID/statm``, from outside):
   *before*;
3. overload for T seconds: the sessions together send R messages/s (each
   delivered to all K sessions: R*K deliveries/s), reading and discarding
   what the server sends at up to ``--read-rate`` MiB/s in total (slower
   than the server writes, as a client that parses every frame is: what
   the server cannot send it must hold, or shed). A session whose socket does not take a
   message (TCP pushes back) skips it: counted as *refused*. A session the
   server closes (its backlog passed the per-session cap: ``c[1008,...]``,
   then the close or a reset) is counted as *closed by server* and the run
   goes on with the others. RSS is sampled every 50 ms: *peak*;
4. the K sessions disconnect (RST, as a client that dies does); L fresh
   sessions send 10 messages/s in total for W seconds and time each
   message's round trip (it comes back to its sender, the broadcast
   includes it) from its scheduled send time (monotonic clock); RSS at the
   end: *after*.

    python tools/overload.py --server ".venv-pypy/bin/python -m sockbench_server --naive" \\
        --sessions 1000 --rate 1000 --seconds 10

prints ``RSS before -> peak -> after`` in MiB and the light-load mean RTT
(all of it, and its last second). ``--server`` is started with
``--port 0`` added (prefix it with ``taskset -c 0`` to pin it); ``--url``
with ``--pid`` measures a server that is already running instead.
The client itself is one Python thread: at R*K deliveries/s it reads far
fewer than the server could send, which is the point (the server must
shed), but it means the figures say nothing about saturation throughput.
"""
from __future__ import annotations

import argparse
import sys

from measured_server import (MiB, add_server_args, check_server_args, raise_fd_limit, rss_summary,
                             start_or_attach, stop_server)
from overload_scenario import run


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    add_server_args(p)
    p.add_argument("--sessions", type=int, default=1000, metavar="K",
                   help="sessions during the overload, 1-20000 (default: 1000)")
    p.add_argument("--rate", type=float, default=1000.0, metavar="R",
                   help="messages/s the sessions send together during the overload, > 0 "
                        "(default: 1000)")
    p.add_argument("--seconds", type=float, default=10.0, metavar="T",
                   help="overload duration in seconds, > 0 (default: 10)")
    p.add_argument("--size", type=int, default=100, metavar="BYTES",
                   help="message payload in characters, 1-65536 (default: 100)")
    p.add_argument("--read-rate", type=float, default=10.0, metavar="MIB_PER_S",
                   help="MiB/s the overloaded sessions read in total, >= 0; 0 = as fast "
                        "as this one thread can (default: 10, a client slower than the "
                        "server, as a Java client parsing every frame is)")
    p.add_argument("--light-seconds", type=float, default=5.0, metavar="W",
                   help="light-load duration in seconds, >= 1 (default: 5)")
    args = p.parse_args(argv)
    check_server_args(p, args)
    if not 1 <= args.sessions <= 20000 or args.rate <= 0 or args.seconds <= 0:
        p.error("--sessions must be 1-20000, --rate and --seconds > 0")
    if not 1 <= args.size <= 65536 or args.light_seconds < 1:
        p.error("--size must be 1-65536 and --light-seconds >= 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_fd_limit(2 * args.sessions + 200, "overload")
    server, url, pid = start_or_attach(args.server, args.url, args.pid)
    try:
        r = run(url, pid, sessions=args.sessions, rate=args.rate, seconds=args.seconds,
                size=args.size, read_rate=args.read_rate * MiB, light_seconds=args.light_seconds)
    finally:
        log = stop_server(server) if server else ""
    print("sessions %d, overload %.0f msgs/s sent for %.0f s (%d sent, %d refused by TCP, "
          "%d due on closed sessions), clients reading <= %s MiB/s"
          % (args.sessions, args.rate, args.seconds, r["sent"], r["refused"], r["skipped"],
             args.read_rate or "unlimited"))
    print("closed by server: %d of %d sessions (%d seen to get c[1008,...] first)"
          % (r["closed_by_server"], args.sessions, r["closed_1008"]))
    print(rss_summary(r))
    print("light load after: %d/%d messages back, mean RTT %.1f ms (last second %.1f ms, "
          "max %.1f ms)" % (r["light_received"], r["light_sent"], r["rtt_mean"] * 1000,
                            r["rtt_mean_last_second"] * 1000, r["rtt_max"] * 1000))
    if log:
        pauses = log.count("overloaded:")
        closed = log.count("client not reading")
        print("server log: %d 'overloaded' line(s), %d 'client not reading' line(s)"
              % (pauses, closed))
    return 0


if __name__ == "__main__":
    sys.exit(main())

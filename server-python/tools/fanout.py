"""Fan-out micro-benchmark: how many messages per second the broadcast path
delivers, without any network.

K framed websocket sessions of a real ``/broadcast`` service (the real
Service, Session, codec, ``api.broadcast`` and fan-out batch, on a real
asyncio loop) get M messages, B per loop iteration; each session's receiver
does what the server's websocket receiver does - builds RFC 6455 frame
bytes (``WsReceiver.encode_wire``) and hands them to a stream - except that
the stream is an in-memory sink that only counts bytes. So the number is the
cost of the broadcast path itself (encode, frame, queue), not of the kernel.

    python tools/fanout.py --sessions 1000 --messages 2000 --per-iteration 1 10

prints one row per (mode, B): delivered messages/s = M * K / wall time,
median of --repeat timed runs (after one untimed warm-up, which PyPy's JIT
needs), with the spread. Before timing it checks that fast and naive mode
deliver the same messages to every session.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from typing import List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sockbench_server import api  # noqa: E402
from sockbench_server.apps.broadcast import make_broadcast  # noqa: E402
from sockbench_server.protocol.codecs import select_codec  # noqa: E402
from sockbench_server.protocol.options import (FAST, NAIVE, ConnectionInfo,  # noqa: E402
                                               ServiceOptions)
from sockbench_server.protocol.service import Service  # noqa: E402
from sockbench_server.tornado_io.timers import LoopTimers  # noqa: E402
from sockbench_server.tornado_io.ws_receivers import WsReceiver  # noqa: E402


class CountingStream:
    """Where a session's bytes go: counted, not kept (memory stays flat)."""

    __slots__ = ("bytes", "writes", "keep")

    def __init__(self, keep: bool):
        self.bytes = 0
        self.writes = 0
        #: For the equivalence check only: the frames themselves.
        self.keep: "List[bytes] | None" = [] if keep else None

    def write(self, data: bytes) -> None:
        self.bytes += len(data)
        self.writes += 1
        if self.keep is not None:
            self.keep.append(data)


class MemoryWsReceiver:
    """The receiver interface of tornado_io.ws_receivers.WsReceiver, writing to
    a :class:`CountingStream` instead of a socket's IOStream."""

    __slots__ = ("stream",)
    wire_format = WsReceiver.wire_format
    encode_wire = staticmethod(WsReceiver.encode_wire)

    def __init__(self, stream: CountingStream):
        self.stream = stream

    def write_prebuilt(self, frame: bytes) -> bool:
        self.stream.write(frame)
        return True

    def send_frame(self, frame: str) -> bool:
        return self.write_prebuilt(WsReceiver.encode_wire(frame))

    def close(self, code: int = 1000, reason: str = "Normal closure") -> None:
        pass


def run_once(mode: str, sessions: int, messages: int, per_iteration: int,
             codec_name: str, keep: bool = False):
    """(seconds, streams) for one run."""
    async def main():
        loop = asyncio.get_running_loop()
        app = make_broadcast()
        service = Service("/broadcast", connection_class=app,
                          options=ServiceOptions(broadcast=mode),
                          codec=select_codec(codec_name), timers=LoopTimers(loop))
        streams = []
        for _ in range(sessions):
            stream = CountingStream(keep)
            session = service.create(None, ConnectionInfo(
                remote_ip="127.0.0.1", path="/broadcast", headers={}, transport="websocket"))
            session.attach(MemoryWsReceiver(stream))
            streams.append(stream)
        payloads = ['{"t":%d,"seq":%d,"pad":"0123456789abcdef"}' % (i * 7919, i)
                    for i in range(messages)]
        members = app.members
        start = time.perf_counter()
        for first in range(0, messages, per_iteration):
            for payload in payloads[first:first + per_iteration]:
                api.broadcast(members, payload)
            await asyncio.sleep(0)  # end of the loop iteration: batches flush
        await asyncio.sleep(0)
        return time.perf_counter() - start, streams

    return asyncio.run(main())


def delivered_messages(stream: CountingStream) -> List[str]:
    out: List[str] = []
    for frame in stream.keep or ():
        n = frame[1] & 0x7F
        offset = 2 if n < 126 else 4 if n == 126 else 10
        text = frame[offset:].decode("utf-8")
        if text.startswith("a"):
            out.extend(json.loads(text[1:]))
    return out


def check_equivalence(codec: str, per_iteration: int) -> None:
    """Fast and naive must deliver the same messages to every session."""
    got = {}
    for mode in (FAST, NAIVE):
        _, streams = run_once(mode, sessions=5, messages=30, per_iteration=per_iteration,
                              codec_name=codec, keep=True)
        got[mode] = [delivered_messages(s) for s in streams]
    if got[FAST] != got[NAIVE] or len(got[FAST][0]) != 30:
        raise SystemExit("fanout: fast and naive modes delivered different messages")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    p.add_argument("--sessions", type=int, nargs="+", default=[1000], metavar="K",
                   help="recipient sessions, >= 1 (default: 1000)")
    p.add_argument("--messages", type=int, default=2000, metavar="M",
                   help="messages broadcast per run, >= 1 (default: 2000)")
    p.add_argument("--per-iteration", type=int, nargs="+", default=[1, 10], metavar="B",
                   help="messages broadcast per loop iteration, >= 1 (default: 1 10)")
    p.add_argument("--repeat", type=int, default=5, metavar="R",
                   help="timed runs per row, >= 1 (default: 5)")
    p.add_argument("--json", default="json", metavar="CODEC",
                   help="codec, as the server's --json (default: json)")
    args = p.parse_args(argv)
    for name in ("messages", "repeat"):
        if getattr(args, name) < 1:
            p.error("--%s must be >= 1" % name)
    if min(args.sessions) < 1 or min(args.per_iteration) < 1:
        p.error("--sessions and --per-iteration must be >= 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    impl = platform.python_implementation()
    for b in args.per_iteration:
        check_equivalence(args.json, b)
    print("| interpreter | codec | K sessions | M messages | per iteration | mode "
          "| delivered msgs/s (median) | min - max | fast / naive |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for k in args.sessions:
        for b in args.per_iteration:
            medians = {}
            for mode in (NAIVE, FAST):
                run_once(mode, sessions=k, messages=args.messages, per_iteration=b,
                         codec_name=args.json)  # warm-up (JIT)
                rates = []
                for _ in range(args.repeat):
                    seconds, _ = run_once(mode, sessions=k, messages=args.messages,
                                          per_iteration=b, codec_name=args.json)
                    rates.append(args.messages * k / seconds)
                medians[mode] = statistics.median(rates)
                ratio = ("%.1fx" % (medians[FAST] / medians[NAIVE])
                         if mode == FAST else "")
                print("| %s %s | %s | %d | %d | %d | %s | %s | %s - %s | %s |" % (
                    impl, platform.python_version(), args.json, k, args.messages, b, mode,
                    "{:,.0f}".format(medians[mode]), "{:,.0f}".format(min(rates)),
                    "{:,.0f}".format(max(rates)), ratio), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

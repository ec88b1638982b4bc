"""Overload and recover: does the server's memory stay bounded when it is
sent far more than it can deliver, and how soon does it serve light load
again?

The scenario (issue 15), one client thread driving every socket with a
selector:

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
import json
import os
import re
import resource
import select
import selectors
import shlex
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Tuple

from sockbench_server.protocol.wsframes import pop_frames

MiB = 1024 * 1024
#: Handshakes in flight at once (under the default listen backlog of 128).
IN_FLIGHT = 100
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes(pid: int) -> int:
    """Resident set size of ``pid`` (``/proc/PID/statm``, field 2)."""
    with open("/proc/%d/statm" % pid) as f:
        return int(f.read().split()[1]) * PAGE


class Server:
    """A server process started from a command plus ``--port 0``; ``url``
    comes from its READY line (docs/protocol.md)."""

    def __init__(self, command: List[str], env: Optional[Dict[str, str]] = None,
                 ready_timeout: float = 30.0):
        # stderr to a file: a pipe nobody reads could fill and stall the server.
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(command + ["--port", "0"], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=self.stderr, env=env)
        self.pid = self.proc.pid
        line = b""
        deadline = time.monotonic() + ready_timeout
        fd = self.proc.stdout.fileno()  # type: ignore[union-attr]
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.stop()
                raise SystemExit("overload: no READY line from %s" % " ".join(command))
            chunk = os.read(fd, 1)
            if not chunk:
                raise SystemExit("overload: server exited: %s" % self.stop()[-2000:])
            line += chunk
        m = re.match(r"READY (http://\S+)", line.decode())
        if not m:
            raise SystemExit("overload: not a READY line: %r" % line)
        self.url = m.group(1)
        self.ready_line = line.decode().strip()

    def stop(self) -> str:
        """SIGTERM, wait; returns its stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")


def ws_frame(text: str) -> bytes:
    """A masked client text frame (the mask is fixed: nothing to hide here)."""
    payload = text.encode("utf-8")
    mask = b"\x01\x02\x03\x04"
    n = len(payload)
    if n < 126:
        head = bytes((0x81, 0x80 | n))
    elif n <= 0xFFFF:
        head = struct.pack("!BBH", 0x81, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
    masked = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
    return head + mask + masked


class Client:
    """One websocket session: connect, handshake, then frames."""

    __slots__ = ("sock", "index", "buf", "state", "pending", "parse", "texts", "tail",
                 "reset")

    def __init__(self, index: int, parse: bool):
        self.index = index
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.buf = bytearray()
        self.state = "connecting"
        #: Bytes of a message the socket did not fully take yet.
        self.pending = b""
        #: Parse frames (light phase) or just count bytes (overload phase).
        self.parse = parse
        self.texts: List[str] = []
        #: The last bytes read while not parsing, to spot ``c[1008`` split
        #: across two reads.
        self.tail = b""
        #: The server reset the connection under a send (it closed it).
        self.reset = False

    def frames(self):
        return pop_frames(self.buf)

    def send(self, data: bytes) -> bool:
        """Send a whole message or nothing new: False if the socket still
        holds part of an earlier one (TCP pushes back)."""
        if self.reset:
            return False
        if self.pending:
            self.flush()
            if self.pending:
                return False
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            return False
        except OSError:  # ECONNRESET, EPIPE: the server closed this session
            self.reset = True
            return False
        self.pending = data[sent:]
        return True

    def flush(self) -> None:
        if self.pending:
            try:
                sent = self.sock.send(self.pending)
            except BlockingIOError:
                return
            except OSError:
                self.reset = True
                self.pending = b""
                return
            self.pending = self.pending[sent:]


class Driver:
    """The selector loop over every client socket."""

    def __init__(self, host: str, port: int, prefix: str = "/broadcast"):
        self.host, self.port, self.prefix = host, port, prefix
        self.sel = selectors.DefaultSelector()
        self.received_bytes = 0
        #: Open sessions the server closed or reset.
        self.closed_by_server = 0
        #: Of those, the ones seen to get ``c[1008,...]`` ("client not
        #: reading") first (a reset may come before it is read).
        self.closed_1008 = 0

    def lost(self, c: "Client") -> None:
        """The server closed ``c`` (seen as EOF or a reset): count it once."""
        if c.state == "closed":
            return
        if c.state == "open":
            self.closed_by_server += 1
        try:
            self.sel.unregister(c.sock)
        except (KeyError, ValueError):
            pass
        c.state = "closed"

    def open_sessions(self, count: int, first_index: int, parse: bool,
                      deadline: float) -> List[Client]:
        clients: List[Client] = []
        opened = in_flight = 0
        next_index = 0
        while opened < count:
            while in_flight < IN_FLIGHT and next_index < count:
                c = Client(first_index + next_index, parse)
                next_index += 1
                c.sock.connect_ex((self.host, self.port))
                self.sel.register(c.sock, selectors.EVENT_WRITE, c)
                clients.append(c)
                in_flight += 1
            if time.monotonic() > deadline:
                raise SystemExit("overload: only %d of %d sessions opened" % (opened, count))
            for key, _ in self.sel.select(timeout=0.5):
                c = key.data
                was_open = c.state == "open"
                self.handle(c)
                if not was_open and c.state == "open":
                    opened += 1
                    in_flight -= 1
        return clients

    def handle(self, c: Client) -> None:
        if c.state == "connecting":
            err = c.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                raise SystemExit("overload: connect failed: %s" % os.strerror(err))
            c.sock.send(("GET %s/000/s%d/websocket HTTP/1.1\r\nHost: %s:%d\r\n"
                         "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n"
                         % (self.prefix, c.index, self.host, self.port)).encode())
            c.state = "handshake"
            self.sel.modify(c.sock, selectors.EVENT_READ, c)
            return
        try:
            data = c.sock.recv(1 << 18)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # ECONNRESET
            data = b""
        if not data:
            self.lost(c)
            return
        self.received_bytes += len(data)
        if c.state == "open" and not c.parse:
            # Overload phase: read and drop, but notice the 1008 close.
            if b"c[1008" in c.tail + data[:8] or b"c[1008" in data:
                self.closed_1008 += 1
                c.tail = b""
            else:
                c.tail = data[-8:]
            return
        c.buf += data
        if c.state == "handshake":
            end = c.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if not c.buf.startswith(b"HTTP/1.1 101"):
                raise SystemExit("overload: handshake refused: %r" % bytes(c.buf[:200]))
            del c.buf[:end + 4]
            c.state = "upgraded"
        for _, payload in c.frames():
            text = payload.decode("utf-8", "replace")
            if c.state == "upgraded" and text == "o":
                c.state = "open"
                if not c.parse:
                    c.buf.clear()
                    return
            elif c.parse and text.startswith("a"):
                c.texts.extend(json.loads(text[1:]))

    def pump(self, timeout: float) -> None:
        for key, _ in self.sel.select(timeout=timeout):
            self.handle(key.data)

    def drop(self, clients: List[Client]) -> None:
        """Disconnect with a RST (SO_LINGER 0): a client that vanished."""
        for c in clients:
            if c.state != "closed":
                try:
                    self.sel.unregister(c.sock)
                except (KeyError, ValueError):
                    pass
            c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            c.sock.close()


def overload(driver: Driver, clients: List[Client], pid: int, rate: float, seconds: float,
             size: int, read_rate: float) -> Tuple[int, int, int, int]:
    """(sent, refused, skipped, peak RSS bytes) of the overload phase;
    skipped: due on a session the server had closed. The clients read at
    most ``read_rate`` bytes/s in total (0: as fast as they can)."""
    frame = ws_frame(json.dumps(["x" * size]))
    start = time.monotonic()
    end = start + seconds
    sent = refused = skipped = 0
    peak = rss_bytes(pid)
    next_sample = start
    i = 0
    n = len(clients)
    read_at_start = driver.received_bytes
    while True:
        now = time.monotonic()
        if now >= end:
            break
        due = int((now - start) * rate)
        # Catch up on the schedule (bounded per turn so reading goes on).
        for _ in range(min(due - sent - refused - skipped, 2000)):
            c = clients[i % n]
            i += 1
            if c.state != "open":
                skipped += 1  # closed by the server: its share is not sent
            elif c.send(frame):
                sent += 1
            else:
                refused += 1
                if c.reset:
                    driver.lost(c)
        if now >= next_sample:
            peak = max(peak, rss_bytes(pid))
            next_sample = now + 0.05
        if read_rate and driver.received_bytes - read_at_start > (now - start) * read_rate:
            time.sleep(0.001)  # read enough for now: the server has to hold the rest
        else:
            driver.pump(0.001)
    return sent, refused, skipped, max(peak, rss_bytes(pid))


def light_load(driver: Driver, clients: List[Client], rate: float, seconds: float,
               pid: int) -> Tuple[List[Tuple[float, float]], int, int]:
    """([(send offset s, RTT s)], messages sent, peak RSS) of the light
    phase; RTT from the scheduled send time, monotonic clock."""
    start = time.monotonic()
    sched: Dict[str, float] = {}
    rtts: List[Tuple[float, float]] = []
    k = 0
    peak = rss_bytes(pid)
    next_sample = start
    while True:
        now = time.monotonic()
        if now - start >= seconds and not sched:
            break
        if now - start >= seconds + 5:  # stragglers: give up
            break
        # Message k is due at start + k / rate.
        while k < min(int((now - start) * rate) + 1, int(seconds * rate)):
            c = clients[k % len(clients)]
            tag = "%d:%d" % (c.index, k)
            t = start + k / rate
            if c.send(ws_frame(json.dumps([tag]))):
                sched[tag] = t
            k += 1
        if now >= next_sample:
            peak = max(peak, rss_bytes(pid))
            next_sample = now + 0.05
        driver.pump(0.002)
        got = time.monotonic()
        for c in clients:
            if c.texts:
                for text in c.texts:
                    if text.startswith("%d:" % c.index) and text in sched:
                        t = sched.pop(text)
                        rtts.append((t - start, got - t))
                c.texts = []
    return rtts, k, peak


def run(url: str, pid: int, sessions: int, rate: float, seconds: float, size: int = 100,
        read_rate: float = 10 * MiB, light_sessions: int = 10, light_rate: float = 10.0,
        light_seconds: float = 5.0, settle: float = 1.0) -> Dict[str, float]:
    """The whole scenario against a running server; the figures as a dict
    (bytes, seconds)."""
    m = re.match(r"http://([^:/]+|\[[^\]]+\]):(\d+)$", url)
    if not m:
        raise SystemExit("overload: bad url %r" % url)
    driver = Driver(m.group(1).strip("[]"), int(m.group(2)))
    deadline = time.monotonic() + 60 + sessions / 50
    clients = driver.open_sessions(sessions, 0, False, deadline)
    settle_end = time.monotonic() + settle
    while time.monotonic() < settle_end:
        driver.pump(0.05)
    before = rss_bytes(pid)
    sent, refused, skipped, peak = overload(driver, clients, pid, rate, seconds, size,
                                            read_rate)
    closed_by_server, closed_1008 = driver.closed_by_server, driver.closed_1008
    driver.drop(clients)
    fresh = driver.open_sessions(light_sessions, sessions, True, time.monotonic() + 30)
    rtts, light_sent, light_peak = light_load(driver, fresh, light_rate, light_seconds, pid)
    after = rss_bytes(pid)
    driver.drop(fresh)
    last = [r for t, r in rtts if t >= light_seconds - 1]
    return {
        "before": before, "peak": max(peak, light_peak), "after": after,
        "sent": sent, "refused": refused, "skipped": skipped,
        "closed_by_server": closed_by_server, "closed_1008": closed_1008,
        "light_sent": light_sent, "light_received": len(rtts),
        "rtt_mean": sum(r for _, r in rtts) / len(rtts) if rtts else float("inf"),
        "rtt_mean_last_second": sum(last) / len(last) if last else float("inf"),
        "rtt_max": max((r for _, r in rtts), default=float("inf")),
    }


def add_server_args(p: argparse.ArgumentParser) -> None:
    """--server COMMAND, or --url of a running server with its --pid: what
    start_or_attach takes."""
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--server", metavar="COMMAND",
                     help="server command to start (--port 0 is added)")
    src.add_argument("--url", help="base URL of a running server (needs --pid)")
    p.add_argument("--pid", type=int, help="pid of the running server (with --url)")


def start_or_attach(server_command: Optional[str], url: Optional[str],
                    pid: Optional[int]) -> Tuple[Optional[Server], str, int]:
    """The server to measure, as ``(server, url, pid)``: started from
    ``server_command`` (a shell-quoted command; its READY line is printed),
    else the running one at ``url`` whose process is ``pid`` (server None)."""
    if server_command:
        server = Server(shlex.split(server_command))
        print(server.ready_line)
        return server, server.url, server.pid
    return None, url, pid


def rss_summary(r: Dict) -> str:
    """The RSS line of a run's report, from its ``before``/``peak``/``after`` (bytes)."""
    return ("RSS before -> peak -> after (MiB): %.0f -> %.0f -> %.0f  (peak - before: %.1f MiB)"
            % (r["before"] / MiB, r["peak"] / MiB, r["after"] / MiB,
               (r["peak"] - r["before"]) / MiB))


def raise_fd_limit(want: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        new_hard = hard if hard == resource.RLIM_INFINITY or hard >= want else want
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, new_hard))
        except (ValueError, OSError) as e:
            raise SystemExit("overload: cannot raise the descriptor limit to %d (%s); "
                             "raise 'ulimit -n'" % (want, e))


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
    if args.url and args.pid is None:
        p.error("--url needs --pid (whose memory to sample)")
    if not 1 <= args.sessions <= 20000 or args.rate <= 0 or args.seconds <= 0:
        p.error("--sessions must be 1-20000, --rate and --seconds > 0")
    if not 1 <= args.size <= 65536 or args.light_seconds < 1:
        p.error("--size must be 1-65536 and --light-seconds >= 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_fd_limit(2 * args.sessions + 200)
    server, url, pid = start_or_attach(args.server, args.url, args.pid)
    try:
        r = run(url, pid, args.sessions, args.rate, args.seconds, args.size,
                read_rate=args.read_rate * MiB, light_seconds=args.light_seconds)
    finally:
        log = server.stop() if server else ""
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

"""The overload-and-recover scenario against a running server (``overload.py``
is its command line, ``tests/server/test_shedding.py`` runs it small): K
sessions overloaded for T seconds while the server's RSS is sampled, then L
fresh sessions under light load timing each message's round trip."""
from __future__ import annotations

import json
import re
import time
from typing import Dict, List, Tuple

from measured_server import MiB, rss_bytes
from ws_driver import Driver
from ws_session import Client, ws_frame


def overload(driver: Driver, clients: List[Client], pid: int, *, rate: float, seconds: float,
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


def light_load(driver: Driver, clients: List[Client], pid: int, *, rate: float,
               seconds: float) -> Tuple[List[Tuple[float, float]], int, int]:
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


def run(url: str, pid: int, *, sessions: int, rate: float, seconds: float, size: int = 100,
        read_rate: float = 10 * MiB, light_sessions: int = 10, light_rate: float = 10.0,
        light_seconds: float = 5.0, settle: float = 1.0) -> Dict[str, float]:
    """The whole scenario against a running server; the figures as a dict
    (bytes, seconds)."""
    m = re.match(r"http://([^:/]+|\[[^\]]+\]):(\d+)$", url)
    if not m:
        raise SystemExit("overload: bad url %r" % url)
    driver = Driver(m.group(1).strip("[]"), int(m.group(2)))
    deadline = time.monotonic() + 60 + sessions / 50
    clients = driver.open_sessions(sessions, first_index=0, parse=False, deadline=deadline)
    settle_end = time.monotonic() + settle
    while time.monotonic() < settle_end:
        driver.pump(0.05)
    before = rss_bytes(pid)
    sent, refused, skipped, peak = overload(driver, clients, pid, rate=rate, seconds=seconds,
                                            size=size, read_rate=read_rate)
    closed_by_server, closed_1008 = driver.closed_by_server, driver.closed_1008
    driver.drop(clients)
    fresh = driver.open_sessions(light_sessions, first_index=sessions, parse=True,
                                 deadline=time.monotonic() + 30)
    rtts, light_sent, light_peak = light_load(driver, fresh, pid, rate=light_rate,
                                              seconds=light_seconds)
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

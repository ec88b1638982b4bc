"""Packets the kernel dropped before any socket saw them, counted around a client run.

Over loopback every packet waits in the sending CPU's backlog queue, at most
`net.core.netdev_max_backlog` packets (1,000 by default); a burst beyond that is
dropped and counted in the second column of /proc/net/softnet_stat (one line
per CPU, hexadecimal). TCP retransmits lost data, so most drops only cost
time; but nothing retransmits a lost keepalive probe, nor the RST a kernel
sends when a connection's probes all went unanswered. That is how a server
that probes its sessions loses them at scale on this machine: sockjs-node
turns keepalive on for every websocket (probes after 5 s idle, then libuv
probes once a second and ends the connection after 10 unanswered), and at
50,000 sessions on the server's saturated core 35,777 of them ended that way
while the client, whose RST was dropped too, still held them open
(docs/sessions.md, "Half-open sessions"). So every repetition records the
drops, and a run with any says so.
"""

SOFTNET_STAT = "/proc/net/softnet_stat"
BACKLOG_SYSCTL = "/proc/sys/net/core/netdev_max_backlog"

#: The queue length, packets per CPU, under which a run of more sessions than one process holds is warned
#: before it starts: with 65,536 the 50,000-session run above lost no packet and no session.
RECOMMENDED_BACKLOG = 65536

#: What a user can do about drops, said with every warning.
RAISE_BACKLOG = f"sysctl -w net.core.netdev_max_backlog={RECOMMENDED_BACKLOG}"


def read_dropped(path=SOFTNET_STAT):
    """Packets dropped at the backlog queue since boot, every CPU together; None when unreadable."""
    try:
        with open(path) as f:
            return sum(int(line.split()[1], 16) for line in f if line.strip())
    except (OSError, IndexError, ValueError):
        return None


def read_backlog_limit(path=BACKLOG_SYSCTL):
    """net.core.netdev_max_backlog, packets per CPU; None when unreadable."""
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def dropped_between(before, after):
    """Packets dropped between two read_dropped() values; None when either is unknown."""
    return None if before is None or after is None else max(0, after - before)


def drop_warning(dropped, backlog_limit):
    """The run's warning when the kernel dropped packets during it, else None."""
    if not dropped:
        return None
    limit = "unknown" if backlog_limit is None else f"{backlog_limit:,}"
    return (f"the kernel dropped {dropped:,} packets at its backlog queue during the client run "
            f"(/proc/net/softnet_stat; net.core.netdev_max_backlog = {limit}): lost keepalive probes and the "
            f"resets after them can end sessions the client still holds open, so losses and latency may be the "
            f"machine's; `{RAISE_BACKLOG}` (as root) raises the queue")


def plan_warning(backlog_limit):
    """The `[plan]` warning for a run above one process's sessions when the queue is shorter than
    RECOMMENDED_BACKLOG, else None (an unreadable limit is not guessed at)."""
    if backlog_limit is None or backlog_limit >= RECOMMENDED_BACKLOG:
        return None
    return (f"[plan] warning: net.core.netdev_max_backlog is {backlog_limit:,} packets: at tens of thousands of "
            f"sessions the kernel drops keepalive probes over loopback and ends sessions the client still holds "
            f"(docs/sessions.md, \"Half-open sessions\"); `{RAISE_BACKLOG}` (as root) raises it, and every "
            f"repetition records its drops (runs[].loopback_dropped)")

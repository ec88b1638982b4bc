"""Which process holds the server end of a TCP connection, seen from outside
the server: /proc/net/tcp{,6} maps a connection (local and remote port) to
its socket inode, /proc/<pid>/fd lists the inodes a process holds
("socket:[inode]"). Linux only, as the kit's measurements are."""
from __future__ import annotations

import os
import re
from typing import Dict, Iterable, List, Set

ESTABLISHED = "01"
_SOCKET = re.compile(r"socket:\[(\d+)\]\Z")


def server_side_inodes(server_port: int) -> Dict[int, str]:
    """inode of each established connection whose local port is
    ``server_port``, keyed by the remote (client) port."""
    out: Dict[int, str] = {}
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(path):
            continue
        with open(path) as f:
            next(f)
            for line in f:
                fields = line.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                remote_port = int(fields[2].rsplit(":", 1)[1], 16)
                if local_port == server_port and fields[3] == ESTABLISHED:
                    out[remote_port] = fields[9]
    return out


def socket_inodes_of(pid: int) -> Set[str]:
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue  # closed meanwhile
        m = _SOCKET.match(target)
        if m:
            inodes.add(m.group(1))
    return inodes


def owners_of(server_port: int, client_ports: Iterable[int], pids: List[int]) -> Dict[int, List[int]]:
    """client port -> the pids (of ``pids``) holding the server end."""
    inodes = server_side_inodes(server_port)
    held = {pid: socket_inodes_of(pid) for pid in pids}
    return {port: [pid for pid in pids if inodes.get(port) in held[pid]] for port in client_ports}

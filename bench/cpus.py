"""CPU-set parsing and the default server/client split.

The benchmark pins the server and the client to disjoint cores so neither
steals the other's CPU; on a 1-core machine they must share, and the result
says so (pinning.shared in the result file).
"""

import os


def parse_cpu_list(text):
    """Parse a taskset/cpuset list such as "0", "1-3", "0,2-3" into a sorted list of ints.

    Raises ValueError with the offending text on anything else.
    """
    cpus = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if "-" in part:
            lo, _, hi = part.partition("-")
            if not (lo.isdigit() and hi.isdigit()) or int(lo) > int(hi):
                raise ValueError(f"bad CPU range {part!r} in {text!r}")
            cpus.update(range(int(lo), int(hi) + 1))
        elif part.isdigit():
            cpus.add(int(part))
        else:
            raise ValueError(f"bad CPU number {part!r} in {text!r}")
    if not cpus:
        raise ValueError(f"empty CPU list {text!r}")
    return sorted(cpus)


def format_cpu_list(cpus):
    """The inverse of parse_cpu_list, in the plain comma form taskset accepts."""
    return ",".join(str(c) for c in sorted(cpus))


def available_cpus():
    """CPUs this process may run on (its affinity mask), sorted."""
    return sorted(os.sched_getaffinity(0))


def default_client_cpus(server_cpus, available):
    """Every available core except the server's; all of them when nothing else is left.

    On a machine with fewer cores than the server takes, the client has to
    share, which the caller reports as a warning.
    """
    rest = [c for c in available if c not in set(server_cpus)]
    return rest if rest else list(available)

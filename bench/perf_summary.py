"""What a `perf record` of one core says, by layer: the kernel, the server's runtime binary, libc and
the other C libraries, JIT code, and every other task that ran on that core (idle included).

Read with `perf report --stdio --no-children -g none` (self samples, no call graphs printed), once
sorted by task, shared object, symbol and *parent* (the nearest softirq entry on a sample's call
chain, which needs the chain `perf record -g` took), and once for the server's own threads.
Sample counts, not perf's rounded percentages, are summed, so the shares add up to 100 %.

Used by kernel_profile.py (`make profile-kernel`); standard library only.
"""

import dataclasses
import os
import re
import subprocess
from collections import Counter

#: perf report's column separator (`-t`): a control character no command, file or symbol name holds.
SEPARATOR = "\x1f"
#: The softirq entries a kernel sample's call chain is searched for, nearest first. The network
#: receive softirq (net_rx_action) is where loopback delivers what a task sent into the receiving
#: socket; the others (handle_softirqs since Linux 6.8, __do_softirq before) cover the rest.
NET_RX_SOFTIRQ = "net_rx_action"
SOFTIRQ_ENTRIES = ("handle_softirqs", "__do_softirq")
PARENT_PATTERN = "^(" + "|".join((NET_RX_SOFTIRQ,) + SOFTIRQ_ENTRIES) + ")$"
#: The idle task's pid: its samples are the core's idle time.
IDLE_PID = 0
#: Other tasks below this share of the core's samples (0..1) are summed into one row.
OTHER_TASK_MIN_SHARE = 0.001
#: At most this many other tasks get a row of their own.
OTHER_TASK_ROWS = 8

KERNEL = "kernel (`[kernel.kallsyms]`)"
LIBC = "libc and other C libraries (`libc`, `libm`, `ld-linux`, `libssl`, `libcrypto`, `[vdso]`, ...)"
OTHER_FILES = "other mapped files (extension modules, ...)"
JIT_NAMED = "JIT code (named through the runtime's perf map)"
JIT_UNRESOLVED = "JIT code (unresolved: no perf map)"
UNRESOLVED_SYMBOL = "(JIT code at addresses perf cannot name)"
_C_LIBRARY = re.compile(r"^(lib[\w+\-]*\.so[.\d]*|ld-linux[\w\-.]*|\[vdso\]|\[vsyscall\])$")
#: Where perf puts code in anonymous executable memory: `[JIT] tid PID` (named from /tmp/perf-PID.map
#: when the runtime writes one, e.g. node --perf-basic-prof), the map's own name, jitdump's
#: `jitted-*.so`, or no file at all.
_JIT_DSO = re.compile(r"^(\[JIT\] tid \d+|perf-\d+\.map|jitted-\d+-\d+\.so|\[unknown\]|//anon.*|\[anon[^\]]*\]"
                      r"|memfd:.*)$")
#: A symbol perf could not name: the bare address (or `[unknown]`).
_ADDRESS = re.compile(r"^(0x[0-9a-f]+|\[unknown\])$")


@dataclasses.dataclass(frozen=True)
class Row:
    """One line of `perf report`: `samples` self samples of thread `tid` (`comm`) in `dso` at `symbol`."""

    samples: int
    tid: int
    comm: str
    dso: str
    symbol: str
    kernel: bool   # perf's `[k]`: the sample's instruction was the kernel's
    softirq: str   # the nearest softirq entry on the sample's call chain (PARENT_PATTERN), "" for none


@dataclasses.dataclass(frozen=True)
class Runtime:
    """The server's runtime as a file name: its executable (`python3.11`, `pypy3.9`, `node`,
    `limit-server`) and the `lib<name>` libraries that belong to it (`libpython3.11.so.1.0`,
    `libpypy3.9-c.so`, `libnode.so.109`), <name> being the executable's without its version."""

    exe: str

    @classmethod
    def from_path(cls, exe_path):
        return cls(os.path.basename(exe_path))

    @property
    def library_prefix(self):
        return "lib" + re.sub(r"[\d.]+$", "", self.exe)

    def owns(self, dso):
        return dso == self.exe or dso.startswith(self.library_prefix)


def report(data_path, sort, extra=(), perf="perf"):
    """`perf report`'s rows for the recording `data_path`, sorted by `sort` (perf's sort keys, e.g.
    "pid,dso,sym"): [(samples, [column, ...])], the columns after the sample count, stripped.
    RuntimeError with perf's last words when it fails."""
    cmd = [perf, "report", "-i", data_path, "--stdio", "--no-children", "-g", "none", "-n",
           "-t", SEPARATOR, "--sort", sort, *extra]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"perf report failed (status {proc.returncode}): {proc.stderr.strip()[-500:]}")
    return parse_table(proc.stdout)


def parse_table(text):
    """The rows of a `perf report -n -t SEPARATOR` listing (its `#` header lines skipped)."""
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cells = [c.strip() for c in line.split(SEPARATOR)]
        rows.append((int(cells[1]), cells[2:]))
    return rows


def task(cell):
    """perf's `Pid:Command` cell ("6757:python3", "12:kworker/0:1") -> (tid, comm)."""
    tid, _, comm = cell.partition(":")
    return int(tid), comm


@dataclasses.dataclass
class Recording:
    """One recording, read: every row, and the server's threads among them."""

    rows: list
    server_tids: set

    @classmethod
    def read(cls, data_path, server_pids, perf="perf"):
        """Read `data_path`; `server_pids` are the server's processes (their threads are its tasks)."""
        rows = []
        # One pass for the rows and their softirq parent: resolving symbols is what costs.
        for samples, (pid_comm, dso, symbol, parent) in report(data_path, "pid,dso,sym,parent",
                                                               ["-p", PARENT_PATTERN], perf=perf):
            tid, comm = task(pid_comm)
            level, _, name = symbol.partition(" ")
            rows.append(Row(samples, tid, comm, dso, name, level == "[k]", "" if parent == "[other]" else parent))
        # perf's pid key is the thread; --pid selects by process, so this names the server's threads.
        pids = ",".join(str(p) for p in server_pids)
        server_tids = {task(cells[0])[0] for _, cells in report(data_path, "pid", ["--pid", pids], perf=perf)}
        return cls(rows, server_tids)

    @property
    def total(self):
        return sum(r.samples for r in self.rows)

    def server_rows(self):
        return [r for r in self.rows if r.tid in self.server_tids]

    def softirq_samples(self, entries):
        """The server's samples in a softirq whose nearest entry is one of `entries`."""
        return sum(r.samples for r in self.server_rows() if r.softirq in entries)


def layer(row, runtime):
    """The layer of one of the server's rows (a KERNEL, LIBC, ... label, or the runtime's)."""
    if row.kernel:
        return KERNEL
    if runtime.owns(row.dso):
        return runtime_label(runtime)
    if _C_LIBRARY.match(row.dso):
        return LIBC
    if _JIT_DSO.match(row.dso):
        return JIT_UNRESOLVED if unresolved_code(row) else JIT_NAMED
    return OTHER_FILES


def unresolved_code(row):
    """A user-space sample in anonymous executable memory (JIT code) whose symbol perf could not name."""
    return not row.kernel and bool(_JIT_DSO.match(row.dso)) and bool(_ADDRESS.match(row.symbol))


def runtime_label(runtime):
    return f"runtime binary (`{runtime.exe}`, `{runtime.library_prefix}*`)"


def layer_rows(recording, runtime):
    """[(label, samples, share of the core, share of the server or None)]: the server's layers, the
    kernel's softirq part under it (indented, not added again), then every other task on the core."""
    total, server = recording.total, recording.server_rows()
    server_total = sum(r.samples for r in server) or 1
    by_layer = Counter()
    for r in server:
        by_layer[layer(r, runtime)] += r.samples
    out = []

    def add(label, samples, of_server=True):
        out.append((label, samples, samples / total, samples / server_total if of_server else None))

    for label in (KERNEL, runtime_label(runtime), LIBC, OTHER_FILES, JIT_NAMED, JIT_UNRESOLVED):
        if label == KERNEL or by_layer[label]:
            add(f"server: {label}", by_layer[label])
        if label == KERNEL:
            add("&nbsp;&nbsp;of which network receive softirq (`net_rx_action`)",
                recording.softirq_samples([NET_RX_SOFTIRQ]))
            add("&nbsp;&nbsp;of which other softirq work", recording.softirq_samples(SOFTIRQ_ENTRIES))
    idle, others = 0, Counter()
    for r in recording.rows:
        if r.tid == IDLE_PID:
            idle += r.samples
        elif r.tid not in recording.server_tids:
            others[f"other task: `{r.comm}`"] += r.samples
    # The idle row is always there: an idle share of 0 says the core was never idle.
    add("idle (`swapper`)", idle, of_server=False)
    rest = 0
    for i, (label, samples) in enumerate(others.most_common()):
        if i < OTHER_TASK_ROWS and samples / total >= OTHER_TASK_MIN_SHARE:
            add(label, samples, of_server=False)
        else:
            rest += samples
    if rest:
        add(f"other tasks, each below {100 * OTHER_TASK_MIN_SHARE:g} % or past the first {OTHER_TASK_ROWS}", rest,
            of_server=False)
    return out


def top_symbols(recording, kernel, n):
    """The server's `n` busiest symbols, kernel or user: [(symbol, dso, samples)], most first."""
    counts = Counter()
    for r in recording.server_rows():
        if r.kernel == kernel:
            # Each unresolved JIT address would be a row of its own: they are one symbol here.
            counts[(UNRESOLVED_SYMBOL if unresolved_code(r) else r.symbol, r.dso)] += r.samples
    return [(sym, dso, samples) for (sym, dso), samples in counts.most_common(n)]


def pct(share):
    return "" if share is None else f"{100 * share:.1f}"


def layers_markdown(recording, runtime, cpu):
    """The layer table, with its total line (the top-level rows sum to 100 % of the core)."""
    lines = [f"| layer | samples | % of CPU {cpu} | % of the server's |", "| --- | ---: | ---: | ---: |"]
    rows = layer_rows(recording, runtime)
    for label, samples, core_share, server_share in rows:
        lines.append(f"| {label} | {samples:,} | {pct(core_share)} | {pct(server_share)} |")
    counted = sum(samples for label, samples, _, _ in rows if not label.startswith("&nbsp;"))
    lines.append(f"| **total** | {counted:,} | {pct(counted / recording.total)} | |")
    return "\n".join(lines)


def symbols_markdown(recording, kernel, n, cpu):
    """The server's top `n` kernel (kernel=True) or user symbols as a table."""
    server_total = sum(r.samples for r in recording.server_rows()) or 1
    lines = [f"| symbol | shared object | % of CPU {cpu} | % of the server's |", "| --- | --- | ---: | ---: |"]
    for sym, dso, samples in top_symbols(recording, kernel, n):
        lines.append(f"| `{sym}` | `{dso}` | {pct(samples / recording.total)} | {pct(samples / server_total)} |")
    return "\n".join(lines)


def jit_samples(recording, runtime):
    """The server's samples in JIT code: (named through a perf map, unresolved)."""
    layers = Counter()
    for r in recording.server_rows():
        layers[layer(r, runtime)] += r.samples
    return layers[JIT_NAMED], layers[JIT_UNRESOLVED]

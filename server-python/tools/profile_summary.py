"""Where a profiled server's CPU went, as two Markdown tables: the functions
that were running (self share) and the ones on the stack (inclusive share).

Both profilers the kit uses give a list of sampled stacks, outermost frame
first: py-spy's ``--format raw`` (collapsed stacks, CPython) and vmprof's
profile file (PyPy). A PyPy stack also holds frames with no Python name
(JIT-compiled loops, the interpreter, C code), which vmprof shows as bare
addresses; a sample's *self* function is therefore the innermost frame that
has a name, so time in a ``socket.send`` call counts for the Python function
that made it (it is that function's cost, kernel included). The inclusive
table counts a function once per sample however often it recurs.

Names are ``function (file)`` with the file shortened to where it lives in
its package (``tornado/iostream.py``, ``sockbench_server/protocol/fanout.py``,
``asyncio/events.py``): the same function reads the same on both
interpreters and on any machine."""
from __future__ import annotations

import collections
import re
from typing import Counter, Iterable, Iterator, List, Optional, Sequence, Tuple

#: A stack: frame names outermost first, None for a frame with no name.
Stack = Sequence[Optional[str]]

_PYSPY_FRAME = re.compile(r"^(?P<func>.*) \((?P<file>.*?)(?::\d+)?\)$")
#: Path prefixes that say nothing about the code: the last one found is cut.
_CUT = ("site-packages/", "lib-python/3/", "/lib/pypy3.9/", "/lib/pypy3/")
_STDLIB = re.compile(r"^.*/lib/python3\.\d+/")


def short_file(path: str) -> str:
    """``/x/.venv/lib/python3.11/site-packages/tornado/web.py`` -> ``tornado/web.py``;
    ``/repo/server-python/sockbench_server/api.py`` -> ``sockbench_server/api.py``."""
    for cut in _CUT:
        at = path.rfind(cut)
        if at >= 0:
            path = path[at + len(cut):]
    path = _STDLIB.sub("", path)
    at = path.rfind("sockbench_server/")
    if at > 0:
        path = path[at:]
    return path


def frame_name(func: str, path: str) -> str:
    return f"{func} ({short_file(path)})"


def pyspy_stacks(lines: Iterable[str]) -> Iterator[Tuple[Stack, int]]:
    """Stacks and their sample counts from py-spy's raw (collapsed) output:
    ``frame;frame;... COUNT`` per line, each frame ``func (file:line)``.
    Thread and process pseudo-frames (``--threads``/``--subprocesses``) are dropped."""
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        stack, _, count = line.rpartition(" ")
        frames: List[Optional[str]] = []
        for raw in stack.split(";"):
            if not raw or raw.startswith("process ") or raw.startswith("thread "):
                continue
            m = _PYSPY_FRAME.match(raw)
            frames.append(frame_name(m.group("func"), m.group("file")) if m else raw)
        yield frames, int(count)


def vmprof_stacks(path: str) -> Iterator[Tuple[Stack, int]]:
    """Stacks from a vmprof profile file (one sample each). Needs vmprof,
    which only the profiled interpreter's venv has: imported here, not above."""
    import vmprof  # noqa: PLC0415  (tools/profile_broadcast.py installs it only where it is used)

    stats = vmprof.read_profile(path)
    names = {}
    for sample in stats.profiles:
        frames: List[Optional[str]] = []
        for addr in sample[0]:
            if addr not in names:
                info = stats.get_addr_info(addr)
                # info: (kind, function, first line, file); None: a JIT or native address
                names[addr] = frame_name(info[1], info[3]) if info else None
            frames.append(names[addr])
        yield frames, 1


class Summary:
    """Self and inclusive sample counts by function name."""

    def __init__(self, stacks: Iterable[Tuple[Stack, int]]):
        self.total = 0
        self.self_samples: Counter[str] = collections.Counter()
        self.inclusive: Counter[str] = collections.Counter()
        #: Samples with no named frame at all (vmprof: outside any Python code).
        self.unnamed = 0
        for frames, count in stacks:
            self.total += count
            named = [f for f in frames if f is not None]
            if not named:
                self.unnamed += count
                continue
            self.self_samples[named[-1]] += count
            for name in set(named):
                self.inclusive[name] += count

    def share(self, n: int) -> str:
        return f"{100.0 * n / self.total:.1f}" if self.total else "0.0"

    def self_table(self, top: int) -> str:
        rows = ["| self % | function (innermost named frame) |", "| ---: | --- |"]
        rows += [f"| {self.share(n)} | `{name}` |" for name, n in self.self_samples.most_common(top)]
        return "\n".join(rows)

    def inclusive_table(self, top: int, prefix: str = "") -> str:
        """The functions on the stack in most samples; ``prefix`` keeps only
        files starting with it (``sockbench_server/``: which of our code)."""
        rows = ["| incl % | function |", "| ---: | --- |"]
        picked = [(name, n) for name, n in self.inclusive.most_common()
                  if f"({prefix}" in name][:top]
        rows += [f"| {self.share(n)} | `{name}` |" for name, n in picked]
        return "\n".join(rows)

"""The server, plus one line on stderr each time its output budget pauses
or resumes reading: ``BUDGET-PEAK <most bytes ever unsent> <pause_at>``.
For test_shedding.py, which checks the accounting itself (the largest total
the budget let through), not only the RSS it results in. Run as
``python budget_probe.py <server arguments>``."""
from __future__ import annotations

import runpy
import sys

from sockbench_server.tornado_io import shedding

Budget = shedding.OutputBudget
_add, _pause, _resume = Budget.add, Budget._pause, Budget._resume


def add(self: Budget, delta: int) -> None:
    _add(self, delta)
    if self.total > getattr(self, "probe_peak", 0):
        self.probe_peak = self.total


def report(self: Budget) -> None:
    sys.stderr.write("BUDGET-PEAK %d %d\n" % (getattr(self, "probe_peak", 0),
                                              getattr(self, "pause_at", self.limit)))


def pause(self: Budget) -> None:
    _pause(self)
    report(self)


def resume(self: Budget) -> None:
    report(self)
    _resume(self)


Budget.add, Budget._pause, Budget._resume = add, pause, resume  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.argv[0] = "sockbench_server"
    runpy.run_module("sockbench_server", run_name="__main__", alter_sys=True)

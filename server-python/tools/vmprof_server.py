"""Runs ``python -m sockbench_server ARGS`` under vmprof (PyPy's sampling
profiler, which sees JIT-compiled code): ``vmprof_server.py OUT ARGS...``
writes the profile to OUT when the server exits (SIGTERM included: the
server's own handler ends the loop and exits normally, so ``atexit`` runs).
tools/profile_broadcast.py starts it; nothing else should."""
from __future__ import annotations

import atexit
import os
import runpy
import sys

import vmprof

#: Seconds between samples: 0.5 ms gives ~30,000 samples in a 15 s window
#: at full CPU; vmprof's own cost at this period stays a few per cent.
PERIOD_S = 0.0005


def main() -> None:
    out = open(sys.argv[1], "w+b")
    vmprof.enable(out.fileno(), period=PERIOD_S)

    def stop() -> None:
        vmprof.disable()
        out.close()

    atexit.register(stop)
    sys.argv = ["sockbench_server"] + sys.argv[2:]
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    runpy.run_module("sockbench_server", run_name="__main__")


if __name__ == "__main__":
    main()

import fcntl
import os
import sys

import pytest

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, BENCH_DIR)

MEASURE_LOCK = "/tmp/sockbench-measure.lock"


@pytest.fixture
def measure_lock():
    """Hold the machine's measurement lock for one test that runs real load
    (the same lock `flock /tmp/sockbench-measure.lock ...` takes), so a test
    never loads the machine while another benchmark measures on it."""
    with open(MEASURE_LOCK, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)

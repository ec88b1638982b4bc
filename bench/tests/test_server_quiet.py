"""The runner waits for a server still busy with the client's work before stopping it, and not
for an idle one (real processes: a busy loop for a while, and a sleeper)."""
import subprocess
import sys

from server_quiet import wait_until_quiet


def _child(code):
    return subprocess.Popen([sys.executable, "-c", code])


def test_a_process_busy_for_a_second_is_waited_for_until_it_goes_quiet():
    busy = _child("import time\nend = time.monotonic() + 1.2\nwhile time.monotonic() < end: pass\ntime.sleep(30)")
    try:
        waited, quiet = wait_until_quiet([busy.pid], timeout_s=10)
        assert quiet
        assert 0.9 <= waited <= 5, waited
    finally:
        busy.kill()
        busy.wait()


def test_an_idle_process_is_not_waited_for():
    idle = _child("import time\ntime.sleep(30)")
    try:
        waited, quiet = wait_until_quiet([idle.pid], timeout_s=10)
        assert quiet and waited < 1.0, waited
    finally:
        idle.kill()
        idle.wait()


def test_a_process_that_stays_busy_is_given_up_on_at_the_timeout():
    busy = _child("while True: pass")
    try:
        waited, quiet = wait_until_quiet([busy.pid], timeout_s=1.0)
        assert not quiet and 1.0 <= waited < 3, waited
    finally:
        busy.kill()
        busy.wait()

"""bench/read-floor against itself: it counts every copy the sender sent,
reads one copy per read when copies arrive alone, and refuses bad input
(usage, exit 2) and a machine limit (open files, one line, exit 2)."""
import json
import os
import resource
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BIN = os.path.join(ROOT, "bench", "read-floor", "bin", "read-floor")


def run(*args, preexec_fn=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60, preexec_fn=preexec_fn)


def test_a_short_run_receives_every_copy_it_sent_and_reports_its_cpu_per_copy():
    p = run("--connections", "20", "--rate", "4000", "--seconds", "1", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["lost"] == 0
    assert r["sent"] == r["received"] > 0
    assert r["sender_kept_rate"] is True
    # 200 copies/s per connection, read every ~0.1 ms: each read finds one copy.
    assert 1.0 <= r["messages_per_read"] < 1.5
    assert abs(r["us_per_message"] - r["user_us_per_message"] - r["system_us_per_message"]) < 0.01
    assert r["us_per_message"] > 0
    assert 3800 < r["received_per_s"] < 4200


def test_the_text_line_names_the_rate_and_the_cost_per_copy():
    p = run("--connections", "5", "--rate", "1000", "--seconds", "0.5")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("N=5 rate=1000/s coalesce=100us: received ")
    assert "us/msg" in p.stdout and "receiver CPU" in p.stdout


def test_a_typo_or_a_value_out_of_range_prints_usage_and_exits_2():
    for args in (["--conections", "10", "--rate", "10"], ["--connections", "0", "--rate", "10"],
                 ["--connections", "10", "--rate", "ten"], ["--connections", "10"],
                 ["--connections", "10", "--rate", "10", "--seconds", "100"]):
        p = run(*args)
        assert p.returncode == 2, args
        assert p.stderr.startswith("read-floor: ") and "usage: read-floor" in p.stderr, args
        assert p.stdout == ""


def test_more_connections_than_open_files_allow_is_one_line_naming_the_limit():
    def low_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))
    p = run("--connections", "500", "--rate", "10", preexec_fn=low_limit)
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1
    assert "open files" in p.stderr and "100" in p.stderr

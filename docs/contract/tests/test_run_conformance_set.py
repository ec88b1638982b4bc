"""run-conformance-set.sh: every run happens with its own settings, a failure fails the set, and a malformed
argument list starts nothing."""

import os
import pathlib
import stat
import subprocess

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "run-conformance-set.sh"


def _fake_python(tmp_path):
    """An 'interpreter' that records each run's server command, environment word and pytest args, and fails
    the run whose server command is `fail`: the script's behaviour without a real suite."""
    record = tmp_path / "runs.txt"
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\n"
                    f"echo \"$SOCKBENCH_SERVER_CMD ${{EXTRA_WORD:-none}} $*\" >> {record}\n"
                    "echo \"output of $SOCKBENCH_SERVER_CMD\"\n"
                    "[ \"$SOCKBENCH_SERVER_CMD\" != fail ]\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    return fake, record


def _run(*args):
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "EXTRA_WORD": ""})


def test_every_run_happens_with_its_own_environment_and_arguments_and_prints_in_order(tmp_path):
    fake, record = _fake_python(tmp_path)
    done = _run(str(fake), "--run", "first", "srv-a", "EXTRA_WORD=yes", "-k", "heartbeat",
                "--run", "second", "srv-b")
    assert done.returncode == 0, done.stderr
    runs = sorted(record.read_text().splitlines())
    assert runs[0].startswith("srv-a yes -m pytest") and "-k heartbeat" in runs[0]
    assert runs[1].startswith("srv-b none -m pytest") and "-k" not in runs[1]
    assert done.stdout.index("--- first") < done.stdout.index("output of srv-a") < done.stdout.index("--- second")


def test_one_failed_run_fails_the_set_and_the_others_still_run(tmp_path):
    fake, record = _fake_python(tmp_path)
    done = _run(str(fake), "--run", "bad", "fail", "--run", "good", "srv")
    assert done.returncode == 1
    assert len(record.read_text().splitlines()) == 2
    assert "conformance failed for:" in done.stderr and "bad" in done.stderr and "good" not in done.stderr


def test_a_malformed_last_run_prints_usage_and_starts_none(tmp_path):
    fake, record = _fake_python(tmp_path)
    for args in (["--run", "ok", "srv", "--run", "missing-command"],
                 ["--run", "ok", "srv", "--run", "--run", "x", "y"],
                 ["--run", "only-a-label"]):
        done = _run(str(fake), *args)
        assert done.returncode == 2, args
        assert done.stderr.startswith("usage:"), args
    assert not record.exists()

"""The private redis-server: on a free loopback port, really ours, gone afterwards; crashed and restarted
on the same port, frozen and thawed (the servers' broker-failure tests); the make rules' wrapper."""

import json
import os
import shutil
import socket
import subprocess
import sys

import pytest

from sockbench_contract.private_redis import PrivateRedis, redis_info
from sockbench_contract.procfs import has_exited, read_pid_cpus
from sockbench_contract.server_launch import StepError

needs_redis = pytest.mark.skipif(shutil.which("redis-server") is None,
                                 reason="redis-server missing: run `make setup-redis`")


@needs_redis
def test_starts_answers_and_stops():
    with PrivateRedis() as redis:
        assert redis.url == f"redis://127.0.0.1:{redis.port}/0"
        info = redis_info(redis.port)
        assert info["process_id"] == str(redis.pid) and info["redis_version"] == redis.version
        pid, port = redis.pid, redis.port
    assert has_exited(pid)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()


@needs_redis
def test_pinned_when_asked():
    cpu = sorted(os.sched_getaffinity(0))[-1]
    with PrivateRedis(cpus=[cpu]) as redis:
        assert read_pid_cpus(redis.pid) == [cpu]


def test_missing_redis_server_is_one_line_naming_the_fix():
    with pytest.raises(StepError, match=r"\[start broker\].*make setup-redis"):
        PrivateRedis(executable="no-such-redis-server").start()


@needs_redis
def test_crashed_comes_back_on_the_same_port_and_frozen_answers_after_thaw():
    with PrivateRedis() as redis:
        url, first = redis.url, redis.pid
        redis.crash()
        with pytest.raises(OSError):
            redis_info(redis.port)
        redis.restart()
        assert redis.url == url and redis.pid != first
        assert redis_info(redis.port)["process_id"] == str(redis.pid)
        redis.freeze()
        with pytest.raises((OSError, ValueError)):
            redis_info(redis.port, timeout_s=0.3)
        redis.thaw()
        assert redis_info(redis.port)["process_id"] == str(redis.pid)


@needs_redis
def test_the_make_wrapper_hands_the_server_a_broker_url_and_its_exit_status():
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "sockbench_contract", "private_redis.py")
    server = "import json, sys; print(json.dumps(sys.argv[-2:])); sys.exit(5)"
    out = subprocess.run([sys.executable, script, sys.executable, "-c", server, "--workers", "2"],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 5, out.stderr
    flag, url = json.loads(out.stdout)
    assert flag == "--broker" and url.startswith("redis://127.0.0.1:")

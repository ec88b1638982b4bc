"""The runner's private redis-server: on a free loopback port, really ours, gone afterwards."""

import os
import shutil
import socket

import pytest

from process_sampler import read_pid_cpus
from sockbench_contract.private_redis import PrivateRedis, redis_info
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
    assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"
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

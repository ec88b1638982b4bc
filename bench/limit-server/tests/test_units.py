"""Builds tests/unit_frames.c against the server's pure sources (handshake
accept value, frame reader, UTF-8 check, SockJS reader and encoder) and runs
it: the C parts checked without a socket."""
import os
import subprocess


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HERE = os.path.join(ROOT, "bench", "limit-server")
UNITS = ["buffers.c", "sockjs_frames.c", "ws_accept.c", "ws_frames.c"]


def test_unit_checks_of_the_pure_c_parts_pass(tmp_path):
    exe = str(tmp_path / "unit_frames")
    subprocess.run(["gcc", "-O1", "-g", "-std=gnu11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror", "-o", exe,
                    os.path.join(HERE, "tests", "unit_frames.c"), *[os.path.join(HERE, u) for u in UNITS],
                    "-lcrypto"], check=True)
    p = subprocess.run([exe], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stdout

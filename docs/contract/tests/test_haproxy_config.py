"""The HAProxy configuration writer: what it routes on, its timeouts against the heartbeat, a comment
before every directive, and that haproxy itself accepts the text (`haproxy -c`, no proxy started)."""

import re
import shutil
import subprocess

import pytest

from sockbench_contract import haproxy_config

BACKENDS = [("b0", "127.0.0.1", 40001), ("b1", "127.0.0.1", 40002)]


def _render(**kw):
    args = {"listen_host": "127.0.0.1", "listen_port": 18080, "backends": BACKENDS, "heartbeat_s": 25,
            "maxconn": 9900}
    args.update(kw)
    return haproxy_config.render(**args)


def _directive(text, keyword):
    return [line.strip() for line in text.splitlines() if line.strip().startswith(keyword)]


def test_sessions_are_hashed_on_the_session_id_and_the_rest_spread():
    text = _render()
    assert _directive(text, "balance hash") == ["balance hash path,regsub('/$',''),field(-2,/)"]
    assert _directive(text, "hash-type") == ["hash-type consistent"]
    assert _directive(text, "balance roundrobin") == ["balance roundrobin"]
    [acl] = _directive(text, "acl sockjs_session")
    pattern = re.search(r"path_reg '(.*)'", acl).group(1)
    for path in ("/broadcast/000/abc/xhr", "/broadcast/123/x-y_z/xhr_send", "/echo/0/s/xhr_streaming",
                 "/close/1/s/eventsource", "/a/1/s/htmlfile", "/a/1/s/jsonp", "/a/1/s/jsonp_send",
                 "/a/1/s/websocket", "/a/1/s/xhr/", "/multi/part/prefix/1/s/xhr"):
        assert re.match(pattern, path), path
    for path in ("/broadcast/info", "/broadcast/iframe.html", "/broadcast/iframe-1.2.html", "/broadcast/",
                 "/broadcast/websocket", "/broadcast", "/b/000/a.b/xhr", "/b/0.0/s/xhr"):
        assert not re.match(pattern, path), path


def test_every_backend_is_in_both_pools_and_the_header_names_it():
    text = _render()
    assert _directive(text, "server b0") == ["server b0 127.0.0.1:40001"] * 2
    assert _directive(text, "server b1") == ["server b1 127.0.0.1:40002"] * 2
    assert _directive(text, "http-response") == [f"http-response set-header {haproxy_config.BACKEND_HEADER} %s"] * 2


@pytest.mark.parametrize("heartbeat_s, idle_s", [(25, 60), (0.5, 60), (40, 90), (100, 210)])
def test_requests_may_stay_silent_past_two_heartbeats(heartbeat_s, idle_s):
    assert haproxy_config.idle_timeout_s(heartbeat_s) == idle_s
    text = _render(heartbeat_s=heartbeat_s)
    for name in ("client", "server", "http-keep-alive"):
        assert _directive(text, f"timeout {name} ") == [f"timeout {name} {idle_s}s"]
    assert _directive(text, "timeout tunnel") == [f"timeout tunnel {haproxy_config.TUNNEL_TIMEOUT_S}s"]


def test_streams_are_never_held_back_and_both_sides_kept_alive():
    text = _render()
    assert _directive(text, "option http-no-delay") and _directive(text, "option http-keep-alive")
    assert not _directive(text, "compression") and not _directive(text, "option http-buffer-request")
    assert not _directive(text, "option http-server-close")


def test_every_directive_follows_a_comment():
    """A block of directives (consecutive lines in a section) starts right after a comment: the reason."""
    lines = _render().splitlines()
    for i, line in enumerate(lines):
        is_directive = line.startswith("    ") and not line.strip().startswith("#")
        starts_block = i > 0 and not (lines[i - 1].startswith("    ") and not lines[i - 1].strip().startswith("#"))
        if is_directive and starts_block:
            assert lines[i - 1].strip().startswith("#"), f"no comment before {line.strip()!r}"


def test_no_backend_is_refused():
    with pytest.raises(ValueError):
        _render(backends=[])


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy missing: run `make setup-haproxy`")
@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0", "::1"])
def test_haproxy_accepts_it(tmp_path, host):
    path = haproxy_config.write(str(tmp_path / "haproxy.cfg"), host, 18080, BACKENDS, 25, 9900)
    check = subprocess.run(["haproxy", "-c", "-f", path], capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr

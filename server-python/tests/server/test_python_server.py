"""Tests of this server only (not part of the server-agnostic suite):
codec selection and refusal, the READY line's version keys, logging."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest
import tornado

from serverproc import ServerProcess
from sockjs_client import GET, POST
from test_sockjs_protocol import FORM, new_session, ws_url
from wsclient import ConnectionClosed, WebSocket

from sockbench_server import cli
from sockbench_server.protocol import codecs
from sockbench_server.tornado_io import server as srvmod

OURS = [sys.executable, "-m", "sockbench_server"]
USABLE, REFUSED = codecs.survey()


def run(args, command=OURS, timeout=30):
    p = subprocess.run(list(command) + list(args), stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


@pytest.mark.parametrize("codec", USABLE)
def test_ready_line_reports_what_runs(codec):
    srv = ServerProcess(["--json", codec], command=OURS)
    try:
        f = srv.fields
        assert f["server"] == "sockbench-tornado"
        assert f["runtime"] == codecs.runtime_name()
        assert f["runtime_version"] == srvmod.runtime_version()
        assert f["tornado"] == tornado.version
        assert f["codec"] == codec
        if codec != "json":
            assert f[codec] == __import__(codec).__version__
        assert f["heartbeat"] == "25"
        assert f["mode"] == "fast"
        assert f["disconnect_delay_ms"] == "5000"
        assert f["response_limit"] == "131072"
        assert GET(srv.url + "/echo").body == "Welcome to SockJS!\n"
    finally:
        assert srv.stop() == 0


def test_runtime_version_format():
    v = srvmod.runtime_version()
    if codecs.runtime_name() == "pypy":
        # e.g. 7.3.11-py3.9.16
        assert "-py3." in v
    else:
        assert v == ".".join(map(str, sys.version_info[:3]))


def test_base_url_and_numbers():
    assert srvmod.base_url("127.0.0.1", 8080) == "http://127.0.0.1:8080"
    assert srvmod.base_url("::1", 1) == "http://[::1]:1"
    assert srvmod.base_url("localhost", 2) == "http://localhost:2"
    assert srvmod.format_number(25.0) == "25"
    assert srvmod.format_number(0.5) == "0.5"


def test_help_documents_the_codec_flag():
    rc, out, err = run(["--help"])
    assert rc == 0 and err == ""
    assert "--json CODEC" in out
    for name in codecs.CODEC_NAMES:
        assert name in out


def test_unknown_codec_is_a_usage_error():
    rc, out, err = run(["--json", "yaml", "--port", "0"])
    assert rc == 2 and out == "" and "--json" in err


def test_long_options_only():
    rc, out, err = run(["--hea", "5", "--port", "0"])
    assert rc == 2 and out == ""


@pytest.mark.parametrize("codec", sorted(REFUSED))
def test_refused_codec_says_why_and_exits_1(codec):
    rc, out, err = run(["--json", codec, "--port", "0"])
    assert rc == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and codec in lines[0], err


def test_missing_codec_is_refused_at_start():
    blocker = [sys.executable, "-c",
               "import sys; sys.modules['ujson'] = None\n"
               "from sockbench_server.cli import main; sys.exit(main())"]
    rc, out, err = run(["--json", "ujson", "--port", "0"], command=blocker)
    assert rc == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("sockbench-tornado: codec 'ujson' is not installed for "
                               "this interpreter (")
    assert lines[0].endswith("install it with pip or run 'make setup'")


def test_bad_input_logs_one_warning_line_each_and_keeps_serving():
    srv = ServerProcess(command=OURS)
    try:
        base = srv.url + "/broadcast"
        ws = WebSocket(ws_url(new_session(base)) + "/websocket")
        assert ws.recv() == "o"
        ws.send('["broken')
        with pytest.raises(ConnectionClosed):
            ws.recv()
        url = new_session(base)
        assert POST(url + "/xhr").body == "o\n"
        assert POST(url + "/xhr_send", body="[1]").status == 500
        assert POST(url + "/jsonp_send", body="d=%5B%22x", headers=FORM).status == 500
        assert POST(url + "/xhr_send", body='["ok"]').status == 204
        assert POST(url + "/xhr").body == 'a["ok"]\n'
        time.sleep(0.2)
    finally:
        assert srv.stop() == 0
    lines = srv.stderr_text().splitlines()
    warnings = [l for l in lines if " WARNING " in l]
    assert len(warnings) == 3, lines
    assert len(lines) == 3, lines  # nothing else at the default level
    assert "Broken JSON encoding." in warnings[0] and "websocket" in warnings[0]
    assert "xhr_send" in warnings[1] and "Payload expected." in warnings[1]
    assert "jsonp_send" in warnings[2] and "Broken JSON encoding." in warnings[2]


def test_debug_logs_go_to_stderr_only():
    srv = ServerProcess(["--log-level", "debug"], command=OURS)
    try:
        assert GET(srv.url + "/echo/info").status == 200
    finally:
        assert srv.stop() == 0
    assert srv.rest_of_stdout() == b""
    assert "GET /echo/info" in srv.stderr_text()


def test_heartbeat_fraction_is_accepted_and_reported():
    srv = ServerProcess(["--heartbeat", "2.5"], command=OURS)
    try:
        assert srv.fields["heartbeat"] == "2.5"
    finally:
        srv.stop()


def test_sockjs_url_is_what_every_iframe_page_loads():
    url = "http://127.0.0.1:9/vendor/sockjs.min.js"
    srv = ServerProcess(["--sockjs-url", url], command=OURS)
    try:
        for prefix in ("/broadcast", "/echo", "/close", "/disabled_websocket_echo",
                       "/cookie_needed_echo"):
            page = GET(srv.url + prefix + "/iframe.html").body
            assert '<script src="%s"></script>' % url in page, (prefix, page)
    finally:
        assert srv.stop() == 0


@pytest.mark.parametrize("value", ["", "cdn.example/sockjs.js", "javascript:alert(1)",
                                   'http://x/"><script>', "http://x/a b"])
def test_bad_sockjs_url_is_a_usage_error(value):
    rc, out, err = run(["--sockjs-url", value, "--port", "0"])
    assert rc == 2 and out == "" and "--sockjs-url" in err


def test_cli_parser_defaults():
    args = cli.build_parser().parse_args([])
    assert (args.host, args.port, args.heartbeat, args.log_level, args.json) == \
        ("127.0.0.1", 8080, 25.0, "warning", "json")
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(["--heartbeat", "inf"])
    assert e.value.code == 2


@pytest.mark.parametrize("path", ["/echo/000/cc/websocket", "/echo/websocket"])
@pytest.mark.parametrize("sent,answer", [
    (1000, 1000), (3000, 3000), (4999, 4999), (1001, 1001),
    (1005, 1002), (1006, 1002), (1015, 1002), (999, 1002), (2000, 1002), (5000, 1002),
])
def test_close_codes_are_validated(server_ours, path, sent, answer):
    ws = WebSocket(ws_url(server_ours.url + path))
    if "000" in path:
        assert ws.recv() == "o"
    ws.send_close(sent)
    with pytest.raises(ConnectionClosed) as e:
        while True:
            ws.recv()
    assert e.value.code == answer
    ws.close()


@pytest.fixture(scope="module")
def server_ours():
    srv = ServerProcess(command=OURS)
    yield srv
    srv.stop()


def test_naive_mode_is_reported_and_broadcasts_the_same():
    srv = ServerProcess(["--naive"], command=OURS)
    try:
        assert srv.fields["mode"] == "naive"
        base = srv.url + "/broadcast"
        a = WebSocket(ws_url(new_session(base)) + "/websocket")
        assert a.recv() == "o"
        b = WebSocket(ws_url(base) + "/websocket")
        time.sleep(0.1)
        a.send('["one","two"]')
        b.send("three")
        assert [a.recv() for _ in range(3)] == ['a["one"]', 'a["two"]', 'a["three"]']
        assert [b.recv() for _ in range(3)] == ["one", "two", "three"]
    finally:
        assert srv.stop() == 0


def test_bad_upgrade_wording_satisfies_every_suite_revision(server_ours):
    r = GET(server_ours.url + "/echo/0/0/websocket")
    assert r.status == 400
    assert 'Can "Upgrade" only to "WebSocket".' in r.body
    assert "Not a valid websocket request" in r.body
    r = GET(server_ours.url + "/echo/websocket",
            headers={"Upgrade": "WebSocket", "Connection": "close"})
    assert r.status == 400
    assert '"Connection" must be "Upgrade".' in r.body
    assert "Not a valid websocket request" in r.body

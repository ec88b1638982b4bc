"""The peer: the original sockjs-tornado 1.0.7 library behind sockbench's wire contract.

This is *not* our server. It is the library the classic benchmark measured,
installed unmodified from PyPI into its own venvs (.venv-peer-cpython,
.venv-peer-pypy) so none of our code is on its path, and wrapped only as far as
docs/protocol.md requires (CLI, READY line, SIGTERM). The broadcast app uses
the library's own optimised helper, `SockJSConnection.broadcast`, which
encodes each message once per broadcast: the fairest configuration of the peer.

Run: .venv-peer-cpython/bin/python bench/peers/sockjs_tornado/broadcast.py --port 0
"""

import argparse
import asyncio
import logging
import platform
import signal
import sys
from importlib import metadata

import tornado
import tornado.httpserver
import tornado.netutil
import tornado.web
from sockjs.tornado import SockJSConnection, SockJSRouter

log = logging.getLogger("sockjs-tornado-peer")

# Sessions of every app, so SIGTERM can close them all (the contract's c[3000,"Go away!"]).
OPEN_CONNECTIONS = set()


class TrackedConnection(SockJSConnection):
    def on_open(self, info):
        OPEN_CONNECTIONS.add(self)

    def on_close(self):
        OPEN_CONNECTIONS.discard(self)


class BroadcastConnection(TrackedConnection):
    participants = set()

    def on_open(self, info):
        super().on_open(info)
        self.participants.add(self)

    def on_message(self, message):
        # The library's helper: one JSON encode per broadcast, not per recipient.
        self.broadcast(self.participants, message)

    def on_close(self):
        self.participants.discard(self)
        super().on_close()


class EchoConnection(TrackedConnection):
    def on_message(self, message):
        self.send(message)


class CloseConnection(TrackedConnection):
    def on_open(self, info):
        super().on_open(info)
        self.close()

    def on_message(self, message):
        pass


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="broadcast.py",
        description="sockjs-tornado 1.0.7 (peer) serving the sockbench apps of docs/protocol.md.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="TCP port 0-65535, 0 = any free port (default 8080)")
    parser.add_argument("--heartbeat", type=float, default=25.0, help="heartbeat interval, seconds > 0 (default 25)")
    parser.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"],
                        help="log verbosity on stderr (default warning)")
    args = parser.parse_args(argv)  # argparse: unknown flag -> usage on stderr, exit 2
    if not 0 <= args.port <= 65535:
        parser.error("--port must be in 0-65535")
    if args.heartbeat <= 0:
        parser.error("--heartbeat must be > 0 seconds")
    return args


def build_application(heartbeat_s):
    def router(connection, prefix, **settings):
        # jsessionid defaults to True in sockjs-tornado, which would make every app
        # report cookie_needed; the contract turns it on only for /cookie_needed_echo.
        base = {"heartbeat_delay": heartbeat_s, "jsessionid": False}
        base.update(settings)
        return SockJSRouter(connection, prefix, base).urls

    urls = (
        router(BroadcastConnection, "/broadcast")
        + router(EchoConnection, "/echo", response_limit=4096)
        + router(CloseConnection, "/close")
        + router(EchoConnection, "/disabled_websocket_echo", disabled_transports=["websocket"])
        + router(EchoConnection, "/cookie_needed_echo", jsessionid=True)
    )
    return tornado.web.Application(urls)


def runtime_fields():
    if platform.python_implementation() == "PyPy":
        pypy = sys.pypy_version_info
        return "pypy", f"{pypy.major}.{pypy.minor}.{pypy.micro}-py{platform.python_version()}"
    return "cpython", platform.python_version()


async def serve(args):
    app = build_application(args.heartbeat)
    sockets = tornado.netutil.bind_sockets(args.port, args.host)
    server = tornado.httpserver.HTTPServer(app)
    server.add_sockets(sockets)
    port = sockets[0].getsockname()[1]

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    runtime, runtime_version = runtime_fields()
    print(
        f"READY http://{args.host}:{port} server=sockjs-tornado runtime={runtime} "
        f"runtime_version={runtime_version} sockjs-tornado={metadata.version('sockjs-tornado')} "
        f"tornado={tornado.version} heartbeat={args.heartbeat:g} disconnect_delay_ms=5000 "
        f"response_limit=131072 peer=true",
        flush=True,
    )
    await stop.wait()

    server.stop()
    for conn in list(OPEN_CONNECTIONS):
        conn.close()  # sockjs-tornado's close() sends c[3000,"Go away!"]
    await asyncio.sleep(0.2)  # let the close frames reach the sockets before exit
    await server.close_all_connections()


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(args))
    except OSError as exc:
        sys.exit(f"sockjs-tornado peer: cannot listen on {args.host}:{args.port}: {exc}")  # stderr, status 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

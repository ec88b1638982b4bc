"""The fence (tornado_io/tornado_private.py): every private Tornado name it
lists exists on the installed Tornado, which is the version constraints.txt
pins; and no other module of the package uses a private Tornado name."""
from __future__ import annotations

import asyncio
import importlib
import os
import re
import socket

import tornado
from tornado.httputil import HTTPServerRequest
from tornado.iostream import IOStream, _StreamBuffer
from tornado.tcpserver import TCPServer
from tornado.web import Application, RequestHandler
from tornado.websocket import WebSocketProtocol13, _WebSocketParams

from sockbench_server.tornado_io import tornado_private as fence

HERE = os.path.dirname(__file__)
ROOT = os.path.join(HERE, "..", "..")


def pinned_tornado() -> str:
    with open(os.path.join(ROOT, "constraints.txt")) as f:
        for line in f:
            m = re.match(r"^tornado==(\S+)", line.strip())
            if m:
                return m.group(1)
    raise AssertionError("constraints.txt pins no tornado version")


def test_the_installed_tornado_is_the_pinned_one():
    assert tornado.version == pinned_tornado()


class NoConnection:
    """Enough of an HTTP connection for a RequestHandler to be constructed."""

    def set_close_callback(self, callback):
        pass


def instance_of(owner):
    """A real object of ``owner`` (or a subclass) to look attributes up on."""
    if owner is RequestHandler:
        return RequestHandler(Application(), HTTPServerRequest("GET", "/", connection=NoConnection()))
    if owner is TCPServer:
        return TCPServer()
    if owner is _StreamBuffer:
        return _StreamBuffer()
    if owner is WebSocketProtocol13:
        # No handler or stream is touched by __init__, which sets the attributes.
        return WebSocketProtocol13(None, False, _WebSocketParams())
    sock = socket.socket()
    return IOStream(sock)  # BaseIOStream's attributes are set by its __init__


def test_every_private_name_of_the_fence_exists():
    async def check():
        missing = []
        for owner, name, kind, why in fence.PRIVATE_NAMES:
            assert why, name  # each name says why it is used
            if kind == "module":
                module, _, attr = name.rpartition(".")
                ok = hasattr(importlib.import_module(module), attr)
            elif kind == "attr":
                ok = hasattr(owner, name)
            else:
                obj = instance_of(owner)
                ok = hasattr(obj, name)
                if isinstance(obj, IOStream):
                    obj.close()
            if not ok:
                missing.append("%s.%s" % (getattr(owner, "__name__", ""), name))
        assert not missing, "missing on Tornado %s: %s" % (tornado.version, missing)
    asyncio.run(check())


def test_the_fence_lists_every_private_name_it_uses():
    source = open(fence.__file__, encoding="utf-8").read()
    code = source.split("\n)\n", 1)[1]  # what follows the PRIVATE_NAMES table
    listed = {name.rpartition(".")[2] for _, name, _, _ in fence.PRIVATE_NAMES}
    own = set(re.findall(r"def (_[a-z]\w*)", code)) - listed  # defined by the fence
    used = set(re.findall(r"\.(_[a-z]\w*)", code))
    for line in re.findall(r"from tornado[\w.]* import ([^\n]+)", source):
        used |= set(re.findall(r"\b(_[A-Za-z]\w*)", line))
    assert used, "the scan found nothing: it is broken"
    unlisted = used - own - listed
    assert not unlisted, "private Tornado names used but not in PRIVATE_NAMES: %s" % unlisted


def test_no_other_module_reaches_into_tornado_privates():
    """Outside the fence, no private attribute of a Tornado object and no
    private name imported from tornado."""
    names = {name.rpartition(".")[2] for _, name, _, _ in fence.PRIVATE_NAMES}
    names = {n for n in names if n.startswith("_")}
    offenders = []
    pkg = os.path.join(ROOT, "sockbench_server")
    for folder, _, files in os.walk(pkg):
        for f in files:
            path = os.path.join(folder, f)
            if not f.endswith(".py") or os.path.samefile(path, fence.__file__):
                continue
            text = open(path, encoding="utf-8").read()
            for name in names:
                if re.search(r"\b%s\b" % re.escape(name), text):
                    offenders.append((f, name))
            # ... nor any other _name on an object from a Tornado module
            for m in re.finditer(r"\b(?:stream|self\.request|handler|connection|server)\._[a-z]\w*", text):
                offenders.append((f, m.group(0)))
            for m in re.finditer(r"from tornado[\w.]* import ([^\n]+)", text):
                if re.search(r"\b_[a-z]", m.group(1)):
                    offenders.append((f, m.group(0)))
    assert not offenders, offenders

"""The sans-I/O core of sockbench_server: SockJS framing, codecs, sessions,
transport wire formats and websocket wire helpers. Nothing here imports
Tornado; the ``tornado_io`` package drives it from sockets and timers."""

"""The Tornado I/O layer: handlers, router, timers and the server process.
Everything protocol-specific is delegated to ``sockbench_server.protocol``."""

"""sockbench_server: a SockJS 0.3.3 server on Tornado (CPython and PyPy).

Public API: :class:`SockJSConnection` (subclass it), :func:`broadcast`,
:class:`Group`, :class:`ConnectionInfo`. Run the benchmark server with
``python -m sockbench_server``.
"""
from .api import ConnectionInfo, Group, SockJSConnection, broadcast

__all__ = ["SockJSConnection", "ConnectionInfo", "Group", "broadcast"]
__version__ = "0.1.0"

"""The one formatter of this server's READY line (docs/protocol.md section 2):
``READY <url> key=value ...``. A process that serves alone prints it
(``tornado_io/server.py``); the supervisor of several workers prints it once
for the group (``scaleout/workers.py``) from the url and fields its workers
report as data over their pipe (``scaleout/supervisor_link.py``), so nothing
in the server reads READY text back."""
from __future__ import annotations

from typing import Sequence, Tuple

#: One ``key=value`` of the line, in the order printed.
Field = Tuple[str, str]


def format_ready_line(url: str, fields: Sequence[Field]) -> str:
    """The line, without its newline; a space in a value is sent as ``%20``
    (values are single tokens in the contract) and a ``%`` as ``%25``, so a
    reader can undo the encoding (docs/protocol.md §2)."""
    return "READY " + url + "".join(" %s=%s" % (k, v.replace("%", "%25").replace(" ", "%20")) for k, v in fields)

"""Read one HTTP/1.1 response off a blocking keep-alive connection, body and
all (Content-Length or chunked), for the tools that post many requests on one
connection and only count the answers' statuses."""
from __future__ import annotations


def read_response(f) -> int:
    """Read one HTTP/1.1 response from ``f``; its status."""
    status_line = f.readline()
    if not status_line:
        raise ConnectionError("server closed the connection")
    status = int(status_line.split()[1])
    length = 0
    chunked = False
    while True:
        line = f.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        while True:
            size = int(f.readline().split(b";")[0], 16)
            f.read(size + 2)
            if size == 0:
                break
    else:
        f.read(length)
    return status

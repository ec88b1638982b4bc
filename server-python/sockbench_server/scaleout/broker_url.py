"""``--broker redis://HOST[:PORT][/DB]``: parsed and checked in one place, so
the command line can refuse a typo (exit 2) before anything connects, and the
relay, the READY line and the channel name all read one value."""

from __future__ import annotations

import dataclasses
import urllib.parse

DEFAULT_PORT = 6379
#: Redis' default ``databases 16``.
MAX_DB = 15


class BrokerUrlError(ValueError):
    """A --broker value that is not a usable redis:// URL (the message says why)."""


@dataclasses.dataclass(frozen=True)
class BrokerAddress:
    host: str  #: name or IP literal (IPv6 without brackets)
    port: int  #: TCP port 1-65535
    db: int  #: Redis database 0-15; names the channel (pub/sub ignores SELECT)

    @property
    def url(self) -> str:
        """Canonical form, ``redis://host:port/db`` (what READY prints)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"redis://{host}:{self.port}/{self.db}"


def parse_broker_url(text: str) -> BrokerAddress:
    """``redis://127.0.0.1:6379/0`` -> BrokerAddress; raises BrokerUrlError."""
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise BrokerUrlError(f"expected redis://HOST[:PORT][/DB], got {text!r} ({exc})") from None
    if parts.scheme != "redis":
        raise BrokerUrlError(f"only redis:// brokers are supported, got {text!r}")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise BrokerUrlError(f"credentials, query and fragment are not supported, got {text!r}")
    if not parts.hostname:
        raise BrokerUrlError(f"no host in {text!r}")
    if port == 0:
        raise BrokerUrlError(f"port must be 1-65535, got 0 in {text!r}")
    path = parts.path[1:] if parts.path.startswith("/") else parts.path
    path = path or "0"
    if not (path.isdigit() and len(path) <= 2 and int(path) <= MAX_DB):
        raise BrokerUrlError(f"database must be an integer 0-{MAX_DB}, got {path!r} in {text!r}")
    return BrokerAddress(parts.hostname, port or DEFAULT_PORT, int(path))

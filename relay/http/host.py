"""What a Host header may hold: a uri-host and an optional port (RFC 9112 §3.2, RFC 3986 §3.2)."""

from __future__ import annotations

import re

__all__ = ["HOST", "HOST_BYTES"]

_HOST = (
    # IP-literal: an IPv6 address or an IPvFuture, in brackets.
    r"(?:\[(?:[0-9A-Fa-f:.]+|[vV][0-9A-Fa-f]+\.[-A-Za-z0-9._~!$&'()*+,;=:]+)\]"
    # reg-name (an IPv4 address among them): unreserved, pct-encoded, sub-delims.
    r"|(?:[-A-Za-z0-9._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)"
    r"(?::[0-9]*)?"
)

HOST = re.compile(_HOST)
"""Matches (fullmatch) a valid Host value, as text."""

HOST_BYTES = re.compile(_HOST.encode())
"""Matches (fullmatch) a valid Host value, as bytes."""

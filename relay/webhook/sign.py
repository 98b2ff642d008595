"""The signature of a your-turn webhook delivery: HMAC-SHA256 over the time and the body.

A delivery carries `Movewire-Signature: t=<unix seconds>,v1=<hex digest>`, the digest being
HMAC-SHA256 with the host's secret of `<t>.` followed by the raw body. docs/hosting.md
quotes `verify` for receivers (a test checks the quote against this module).
"""

from __future__ import annotations

import hashlib
import hmac
import time

__all__ = ["HEADER", "sign", "verify"]

HEADER = "Movewire-Signature"
"""The header a delivery's signature travels in."""


def sign(secret: bytes, body: bytes, now: float) -> str:
    """Returns the signature header's value for body, sent at now."""
    stamp = int(now)
    digest = hmac.new(secret, b"%d." % stamp + body, hashlib.sha256).hexdigest()
    return f"t={stamp},v1={digest}"


def verify(secret: bytes, header: str, body: bytes, tolerance: float = 300.0) -> bool:
    """Returns whether a Movewire-Signature header signs body with secret, sent within
    tolerance seconds of now (a replayed old delivery fails)."""
    fields = dict(part.partition("=")[::2] for part in header.split(","))
    stamp, digest = fields.get("t", ""), fields.get("v1", "")
    if not stamp.isdigit() or abs(time.time() - int(stamp)) > tolerance:
        return False
    expected = hmac.new(secret, stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, digest)

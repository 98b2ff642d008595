"""The signature of a your-turn webhook delivery, in the Standard Webhooks form.

A delivery carries `webhook-id` (its id, the same on each attempt), `webhook-timestamp` (the
attempt's Unix seconds) and `webhook-signature`: `v1,` and the base64 of HMAC-SHA256 over
`<id>.<timestamp>.<body>`, one per key, separated by spaces. A secret's key is the base64
after `whsec_`, else the secret's own bytes (relay.config.webhook_key). docs/hosting.md
quotes `verify` for receivers (a test checks the quote against this module and the
standardwebhooks library).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Mapping, Sequence

from relay.config import webhook_key

__all__ = ["ID", "SIGNATURE", "TIMESTAMP", "TOLERANCE", "sign", "verify"]

ID = "webhook-id"
"""The header naming a delivery: the same on each of its attempts, for the receiver to
deduplicate by (and to refuse a replay with)."""
TIMESTAMP = "webhook-timestamp"
"""The header holding the Unix seconds an attempt was signed at."""
SIGNATURE = "webhook-signature"
"""The header holding the attempt's signatures, one per key, separated by spaces."""
TOLERANCE = 300.0
"""Seconds a signature's timestamp may be off now, either way, for verify (the spec's 5 min)."""


def _signature(key: bytes, ident: str, stamp: str, body: bytes) -> str:
    mac = hmac.new(key, f"{ident}.{stamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def sign(keys: Sequence[bytes], ident: str, body: bytes, now: float) -> dict[str, str]:
    """Returns the headers that sign body, delivery ident's attempt at now, with each key."""
    stamp = str(int(now))
    signatures = " ".join(_signature(key, ident, stamp, body) for key in keys)
    return {ID: ident, TIMESTAMP: stamp, SIGNATURE: signatures}


def verify(
    secret: bytes, headers: Mapping[str, str], body: bytes, tolerance: float = TOLERANCE
) -> bool:
    """Returns whether the headers (names in any case) sign body and its id with one secret
    (as the relay was given it: whsec_ and base64, or the key itself), at a time within
    tolerance seconds of now; raises ValueError for a whsec_ secret's bad base64."""
    given = {name.lower(): value for name, value in headers.items()}
    ident, stamp = given.get(ID, ""), given.get(TIMESTAMP, "")
    if not ident or not (stamp.isascii() and stamp.isdigit()):
        return False
    if abs(time.time() - int(stamp)) > tolerance:
        return False
    expected = _signature(webhook_key(secret), ident, stamp, body).encode()
    return any(
        hmac.compare_digest(expected, signature.encode(errors="replace"))
        for signature in given.get(SIGNATURE, "").split(" ")
    )

"""A player's push subscription (the browser's PushSubscription), checked before any work:
an https endpoint that is not a private address, and the two keys of the right lengths.

The relay POSTs to a URL the player gave, so the URL is held tight: https only (plain http
only to a loopback address, and only when the relay was told to allow it, for tests), no user
or password in it, no private, link-local or loopback address literal, at most MAX_ENDPOINT
characters. A name that resolves to a private address is not caught here; the sender never
follows a redirect and reads nothing of an answer but its status.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec

from relay.push.keys import b64url, b64url_decode

__all__ = ["MAX_ENDPOINT", "Subscription", "SubscriptionError"]

MAX_ENDPOINT = 1024
"""Characters a subscription's endpoint URL may have (the push services' are near 200)."""

P256DH_BYTES = 65
"""Bytes of the browser's ECDH public key: an uncompressed P-256 point (RFC 8291)."""

AUTH_BYTES = 16
"""Bytes of the browser's authentication secret (RFC 8291)."""


class SubscriptionError(ValueError):
    """Raised when a push subscription is not one the relay will send to."""


@dataclass(frozen=True, slots=True)
class Subscription:
    """Where and how to push to one browser: its endpoint and its keys."""

    endpoint: str
    p256dh: bytes = field(repr=False)
    """The browser's ECDH public key, 65 bytes."""
    auth: bytes = field(repr=False)
    """The browser's authentication secret, 16 bytes."""

    @classmethod
    def from_json(cls, value: Any, *, loopback_http: bool = False) -> Subscription:
        """Returns the subscription a page sent (`PushSubscription.toJSON()`: `endpoint` and
        `keys` with `p256dh` and `auth` in base64url); raises SubscriptionError saying what is
        wrong. loopback_http: plain http to a loopback address is allowed (tests only)."""
        if not isinstance(value, Mapping):
            raise SubscriptionError("a subscription is an object with endpoint and keys")
        endpoint, keys = value.get("endpoint"), value.get("keys")
        if not isinstance(endpoint, str):
            raise SubscriptionError("a subscription's endpoint must be a URL string")
        if not isinstance(keys, Mapping):
            raise SubscriptionError("a subscription's keys must be an object with p256dh and auth")
        check_endpoint(endpoint, loopback_http=loopback_http)
        p256dh = _key(keys.get("p256dh"), "p256dh", P256DH_BYTES)
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p256dh)
        except ValueError:
            raise SubscriptionError("keys.p256dh is not a point of the P-256 curve") from None
        return cls(endpoint, p256dh, _key(keys.get("auth"), "auth", AUTH_BYTES))

    def to_json(self) -> dict[str, Any]:
        """Returns the subscription as from_json reads it (to store it)."""
        keys = {"p256dh": b64url(self.p256dh), "auth": b64url(self.auth)}
        return {"endpoint": self.endpoint, "keys": keys}

    @property
    def origin(self) -> str:
        """The push service's origin (scheme, host, port): the VAPID audience."""
        parts = urllib.parse.urlsplit(self.endpoint)
        return f"{parts.scheme}://{parts.netloc}"


def check_endpoint(endpoint: str, *, loopback_http: bool = False) -> None:
    """Raises SubscriptionError unless endpoint is a URL the relay will POST to."""
    if len(endpoint) > MAX_ENDPOINT:
        raise SubscriptionError(f"a subscription's endpoint is at most {MAX_ENDPOINT} characters")
    try:
        parts = urllib.parse.urlsplit(endpoint)
        host, _ = parts.hostname, parts.port
    except ValueError:
        raise SubscriptionError(f"a subscription's endpoint is not a URL: {endpoint!r}") from None
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        raise SubscriptionError(
            f"a subscription's endpoint must name a host, and no user, password or fragment: "
            f"{endpoint!r}"
        )
    if any(ord(c) <= 0x20 or ord(c) >= 0x7F for c in endpoint):
        raise SubscriptionError(f"a subscription's endpoint must be plain ASCII: {endpoint!r}")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    loopback = host == "localhost" or (address is not None and address.is_loopback)
    if parts.scheme == "http" and loopback and loopback_http:
        return
    if parts.scheme != "https":
        raise SubscriptionError(f"a subscription's endpoint must be an https:// URL: {endpoint!r}")
    if loopback or (address is not None and not address.is_global):
        raise SubscriptionError(
            f"a subscription's endpoint must not be a private or loopback address: {endpoint!r}"
        )


def _key(value: Any, name: str, size: int) -> bytes:
    """Returns a key's bytes from its base64url, checked to be size bytes long."""
    if not isinstance(value, str):
        raise SubscriptionError(f"keys.{name} must be a base64url string")
    try:
        raw = b64url_decode(value)
    except ValueError:
        raise SubscriptionError(f"keys.{name} is not base64url") from None
    if len(raw) != size:
        raise SubscriptionError(f"keys.{name} must be {size} bytes, not {len(raw)}")
    return raw

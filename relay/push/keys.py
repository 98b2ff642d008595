"""The relay's VAPID key (RFC 8292): read from a file or the environment, never the command
line, and refused at start when push is asked for and the key is missing or bad.

The key is a P-256 private key, as a PEM file (`vapid --gen` of py-vapid writes one, and so
does `openssl ecparam -name prime256v1 -genkey`) or as the 32 raw bytes in base64url (what the
web-push tools of Node print as the private key). Its public half, in base64url of the 65-byte
uncompressed point, is the `applicationServerKey` a page gives `pushManager.subscribe`.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02  # type: ignore[import-untyped]

from relay.core.patterns import B64URL

__all__ = [
    "BAD_KEY",
    "BAD_SUBJECT",
    "KEY_ENV",
    "NO_KEY",
    "VapidKey",
    "b64url",
    "check_subject",
    "load_key",
    "read_key",
]

KEY_ENV = "MOVEWIRE_VAPID_KEY"
"""The environment variable the VAPID private key may come from (kept out of the command
line): the PEM text or the raw key in base64url."""

NO_KEY = (
    "Web Push needs the relay's VAPID private key, from --push-key-file PATH or the "
    "environment variable MOVEWIRE_VAPID_KEY (make one with `vapid --gen`, docs/web-push.md)"
)
"""The refusal of push asked for without a key."""

BAD_KEY = (
    "the VAPID key must be a P-256 (prime256v1) private key: PEM, or its 32 raw bytes in "
    "base64url (none of it shown)"
)
"""The refusal of a key that is not a P-256 private key (its text is never shown)."""

BAD_SUBJECT = "the push subject must be a mailto: address or an https:// URL, not {!r}"
"""The refusal of a VAPID subject push services cannot use to reach the host."""

SUBJECT = re.compile(r"mailto:[^@\s]+@[^@\s]+|https://[^\s/?#]+(/\S*)?")
"""A VAPID `sub` claim: the host's contact, as push services require it."""


def b64url(data: bytes) -> str:
    """Returns data in base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    """Returns the bytes of base64url text (padding optional); raises ValueError for any
    character outside the base64url alphabet."""
    if not B64URL.fullmatch(text):
        raise ValueError("not base64url")
    bare = text.rstrip("=")
    try:
        return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except binascii.Error:
        raise ValueError("not base64url") from None


def check_subject(subject: str) -> None:
    """Raises ValueError unless subject is a mailto: address or an https:// URL."""
    if SUBJECT.fullmatch(subject) is None:
        raise ValueError(BAD_SUBJECT.format(subject))


@dataclass(frozen=True, slots=True)
class VapidKey:
    """The relay's VAPID key pair, and the subject its signatures name."""

    private: ec.EllipticCurvePrivateKey = field(repr=False)
    subject: str
    """The `sub` claim: how a push service reaches the host (mailto: or https:)."""

    def __post_init__(self) -> None:
        if not isinstance(self.private.curve, ec.SECP256R1):
            raise ValueError(BAD_KEY)
        check_subject(self.subject)
        try:  # py-vapid checks the subject its own way: refused now, not at the first push
            self.sign("https://push.example", 0)
        except Exception:
            raise ValueError(BAD_SUBJECT.format(self.subject)) from None

    @classmethod
    def generate(cls, subject: str) -> VapidKey:
        """Returns a new random key pair (for tests and for a host's first start)."""
        return cls(ec.generate_private_key(ec.SECP256R1()), subject)

    @property
    def public(self) -> str:
        """The public key as pages give it to `pushManager.subscribe`: base64url of the
        65-byte uncompressed point."""
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def sign(self, audience: str, expires: int) -> str:
        """Returns the `Authorization` header value (`vapid t=<JWT>,k=<public key>`) for a
        push service's origin (audience), valid until expires (seconds since the epoch)."""
        signer = Vapid02(self.private)
        claims = {"aud": audience, "exp": expires, "sub": self.subject}
        header: str = signer.sign(claims)["Authorization"]
        return header


def read_key(text: bytes) -> ec.EllipticCurvePrivateKey:
    """Returns the P-256 private key in text (PEM, or 32 raw bytes in base64url); raises
    ValueError with BAD_KEY otherwise."""
    text = text.strip()
    try:
        if text.startswith(b"-----BEGIN"):
            key = serialization.load_pem_private_key(text, password=None)
        else:
            raw = b64url_decode(text.decode("ascii"))
            if len(raw) != 32:
                raise ValueError(BAD_KEY)
            key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except (ValueError, TypeError, UnicodeDecodeError):
        raise ValueError(BAD_KEY) from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError(BAD_KEY)
    return key


def load_key(path: str | None, subject: str, environ: Mapping[str, str] = os.environ) -> VapidKey:
    """Returns the relay's VAPID key: the file's (path), else the environment's (KEY_ENV);
    raises ValueError, saying which and why, when neither holds one, the file cannot be read,
    the key is not a P-256 private key, or the subject is not a mailto: or https: contact."""
    check_subject(subject)
    if path is None:
        text = environ.get(KEY_ENV, "").encode()
        if not text.strip():
            raise ValueError(NO_KEY)
    else:
        try:
            text = Path(path).read_bytes()
        except OSError as exc:
            raise ValueError(f"cannot read --push-key-file {path!r}: {exc.strerror}") from None
        if not text.strip():
            raise ValueError(f"--push-key-file {path!r} is empty: {NO_KEY}")
    return VapidKey(read_key(text), subject)

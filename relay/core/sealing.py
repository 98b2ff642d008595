"""Player keys sealed with the host's secret (AES-256-GCM), so that a store read in clear
gives away no key: the relay opens one only for a proven passkey or a transfer code."""

from __future__ import annotations

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

__all__ = ["Sealer"]

_INFO = b"movewire player key seal v1"
"""What the key derived from the secret is for (HKDF's info): no other use shares it."""

_BOUND = b"movewire/player-key"
"""The associated data of each seal: a sealed player key opens as nothing else."""


class Sealer:
    """Seals and opens player keys with a key derived from the host's secret."""

    __slots__ = ("_aead",)

    def __init__(self, secret: bytes) -> None:
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(secret)
        self._aead = AESGCM(derived)

    def seal(self, text: str) -> str:
        """Returns the text sealed: base64url of a fresh 96-bit nonce and the ciphertext."""
        nonce = os.urandom(12)
        sealed = nonce + self._aead.encrypt(nonce, text.encode(), _BOUND)
        return base64.urlsafe_b64encode(sealed).decode().rstrip("=")

    def open(self, sealed: str) -> str | None:
        """Returns the text sealed, or None when it was sealed with another secret or altered."""
        try:
            raw = base64.urlsafe_b64decode(sealed + "=" * (-len(sealed) % 4))
            return self._aead.decrypt(raw[:12], raw[12:], _BOUND).decode()
        except (InvalidTag, ValueError):
            return None

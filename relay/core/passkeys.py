"""Passkeys and transfer codes: what a player key's passkeys are, their limits and the host's
settings (docs/protocol.md#passkeys).

A passkey (WebAuthn) bound to a player key brings that key back on another device: the relay
keeps the key sealed (relay.core.sealing) beside the passkey's public key, and hands it back to
whoever proves the passkey. A transfer code does the same once, for a few minutes, without a
passkey."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from relay.core.patterns import CREDENTIAL

__all__ = [
    "CHALLENGE_SECONDS", "CODES_MOST", "CODES_PER_PLAYER", "CODE_ALPHABET", "CODE_LENGTH",
    "CODE_SECONDS", "CREDENTIAL", "HOLD_BUCKETS", "LABEL_MOST", "PASSKEYS_MOST",
    "PASSKEYS_PER_PLAYER", "PENDING_PER_PLAYER", "SIGNINS_MOST", "TRIES_PER_MINUTE",
    "Passkey", "PasskeySettings",
]  # fmt: skip

PASSKEYS_PER_PLAYER = 8
"""Passkeys one player key may have at once."""

PASSKEYS_MOST = 100_000
"""Passkeys the store keeps in all (a registration past it is refused: passkey/full)."""

PENDING_PER_PLAYER = 4
"""Registration challenges one player key may have pending at once."""

SIGNINS_MOST = 1024
"""Sign-in challenges pending at once in the whole store (split over HOLD_BUCKETS)."""

CHALLENGE_SECONDS = 120.0
"""Seconds a challenge stays valid; it is good for one answer only."""

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The characters of a transfer code: 30, none that reads like another (no 0 O 1 I L U)."""

CODE_LENGTH = 10
"""Characters of a transfer code: 30**10, about 5.9e14 codes (49 bits)."""

CODE_SECONDS = 300.0
"""Seconds a transfer code stays valid; it is good for one sign-in only."""

CODES_PER_PLAYER = 3
"""Transfer codes one player key may make per CODE_SECONDS (so at most 3 are valid at once)."""

CODES_MOST = 4096
"""Transfer codes valid at once in the whole store (split over HOLD_BUCKETS)."""

HOLD_BUCKETS = 8
"""The shared sets of pending challenges and codes are split in this many (a Redis Cluster
spreads them), each capped at its share of the whole."""

TRIES_PER_MINUTE = 10
"""Sign-ins (a passkey's answer or a transfer code), and options asked for, per client a
minute; with CODES_MOST this bounds a guesser (docs/protocol.md#limits)."""

LABEL_MOST = 64
"""Characters of a passkey's label (the player's own word for the device)."""


@dataclass(frozen=True, slots=True)
class PasskeySettings:
    """The host's passkey settings: without them, passkeys and transfer codes are off."""

    rp_id: str
    """The relying party id: the host name the pages are served from (e.g. 'games.example')."""
    origins: tuple[str, ...]
    """The origins the pages are served from (e.g. 'https://games.example')."""
    secret: bytes = field(repr=False)
    """Seals the player keys the store keeps (at least 16 bytes); from a file or the
    environment, never the command line."""
    rp_name: str = "movewire"
    """The name an authenticator shows for the relying party."""


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey bound to a player key, as the store keeps it."""

    id: str
    """The credential id, base64url."""
    owner: str
    """The digest of the player key it signs in as (relay.core.model.hash_token)."""
    sealed: str
    """The player key itself, sealed with the host's secret."""
    public_key: str
    """The credential's COSE public key, base64url."""
    sign_count: int
    label: str
    created: float

    def as_dict(self) -> dict[str, Any]:
        """Returns the whole record, as the store writes it."""
        return {
            "id": self.id, "owner": self.owner, "sealed": self.sealed,
            "public_key": self.public_key, "sign_count": self.sign_count, "label": self.label,
            "created": self.created,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, found: dict[str, Any]) -> Passkey:
        """Returns the record the store wrote (as_dict)."""
        return cls(
            str(found["id"]), str(found["owner"]), str(found["sealed"]),
            str(found["public_key"]), int(found["sign_count"]), str(found["label"]),
            float(found["created"]),
        )  # fmt: skip

    def listing(self) -> dict[str, Any]:
        """Returns what the player reads of it: its id, label and when it was added."""
        return {"id": self.id, "label": self.label, "created": self.created}

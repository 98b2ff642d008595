"""The shapes of the protocol's identifiers, written once: the relay's checks and OpenAPI's
patterns are both made from them, and tests/relay/core/test_patterns.py holds the pages' copies
to them."""

from __future__ import annotations

import re

__all__ = [
    "B64URL",
    "B64URL_TEXT",
    "CHALLENGE_ID",
    "CHALLENGE_ID_TEXT",
    "CREDENTIAL",
    "CREDENTIAL_TEXT",
    "KEY",
    "KEY_TEXT",
    "NAME",
    "NAME_TEXT",
    "PUBLIC_ID",
    "PUBLIC_ID_TEXT",
    "anchored",
]

KEY_TEXT = r"[A-Za-z0-9_-]{32,128}"
"""A seat token a seeker draws, or a player key: 32 to 128 URL-safe characters, random."""

NAME_TEXT = r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"
"""A game key, a version or a room name: 1 to 64 letters, digits, '.', '_' or '-', the first
a letter or a digit."""

PUBLIC_ID_TEXT = r"[A-Za-z0-9_-]{12}"
"""A player key's public id (relay.core.standings.public_id)."""

CREDENTIAL_TEXT = r"[A-Za-z0-9_-]{16,1400}"
"""A passkey's credential id as the wire carries it: base64url without padding (WebAuthn allows
up to 1023 bytes; relay.core.passkeys)."""

CHALLENGE_ID_TEXT = r"[A-Za-z0-9_-]{24}"
"""A challenge's id: its challenged key's public id and 12 random characters
(relay.core.challenges.new_challenge_id)."""

B64URL_TEXT = r"[A-Za-z0-9_-]+={0,2}"
"""Bytes in base64url, as Web Push writes its keys (padding allowed: some browsers keep it):
the relay's public VAPID key, a subscription's p256dh and auth (relay.push)."""

B64URL = re.compile(B64URL_TEXT)
CHALLENGE_ID = re.compile(CHALLENGE_ID_TEXT)
CREDENTIAL = re.compile(CREDENTIAL_TEXT)
KEY = re.compile(KEY_TEXT)
NAME = re.compile(NAME_TEXT)
PUBLIC_ID = re.compile(PUBLIC_ID_TEXT)


def anchored(text: str) -> str:
    """Returns a pattern as JSON Schema writes one that must match the whole string."""
    return f"^{text}$"

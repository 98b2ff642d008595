"""What every relay process sending your-turn webhooks must agree on: which turns were
already handled, and each contact's throttle window and the turns held for its next digest.

A store keeps this state (Hooks.state): the memory store in its process, the Redis store
in Redis, under its prefix, where a contact is known only by a digest of it."""

from __future__ import annotations

from typing import Protocol

__all__ = ["CLAIMS", "CLAIM_FOR", "HELD", "HookState"]

CLAIM_FOR = 86400.0
"""Seconds a handled turn is remembered (a write retried later is refused by the store)."""

HELD = 100
"""Turns held per contact for its next digest; older ones are dropped past it."""

CLAIMS = 100_000
"""Handled turns the memory state remembers, the oldest forgotten first."""


class HookState(Protocol):
    """The shared state of the webhook sender."""

    async def claim(self, key: str) -> bool:
        """Returns True the first time a turn's key is claimed, False every time after."""

    async def open_window(self, contact: str, seconds: float) -> bool:
        """Opens the contact's throttle window for seconds unless one is open; returns
        whether this call opened it."""

    async def window_left(self, contact: str) -> float:
        """Returns the seconds until the contact's window closes (0 when none is open)."""

    async def hold(self, contact: str, turn: bytes) -> None:
        """Keeps a turn for the contact's next digest (the newest HELD at most)."""

    async def take(self, contact: str) -> list[bytes]:
        """Returns the contact's held turns, oldest first, and forgets them."""

    async def give_back(self, contact: str, turns: list[bytes]) -> None:
        """Puts taken turns back before any held since (their digest must wait)."""

"""The store's passkeys part: the passkeys bound to player keys, and the pending items that
come and go with them (challenges and transfer codes), on every relay process sharing the store
(docs/protocol.md#passkeys).

A pending item lives in a scope (a player key's registrations, or one bucket of the shared
sign-in challenges or transfer codes), is taken once, and expires; each scope holds a bounded
number."""

from __future__ import annotations

from typing import Protocol

from relay.core.passkeys import Passkey

__all__ = ["Passkeys"]


class Passkeys(Protocol):
    """A store's passkeys and pending challenges and codes."""

    async def hold(
        self, scope: str, item: str, value: str, until: float, now: float, most: int
    ) -> bool:
        """Keeps item (with its value) in scope until `until`; returns False, keeping nothing,
        when the scope holds `most` items not expired at now (or the item already)."""

    async def take(self, scope: str, item: str, now: float) -> str | None:
        """Removes item from scope and returns its value; None when it is not there or
        expired (an item is taken once)."""

    async def add(self, passkey: Passkey, per_player: int, most: int) -> bool:
        """Binds the passkey to its owner; returns False when its credential id is bound
        already. Raises passkey/full when the owner has per_player passkeys, or the store
        `most` in all."""

    async def listed(self, owner: str) -> list[Passkey]:
        """Returns the passkeys of a player key's digest, oldest first."""

    async def remove(self, owner: str, credential: str) -> bool:
        """Unbinds the owner's passkey of that credential id; returns whether it was bound."""

    async def find(self, credential: str) -> Passkey | None:
        """Returns the passkey of a credential id, or None when none is bound."""

    async def used(self, passkey: Passkey, sign_count: int) -> None:
        """Keeps the passkey's new signature counter (after a sign-in)."""

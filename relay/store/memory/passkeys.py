"""Passkeys in the memory store: each player key's passkeys, and the pending challenges and
transfer codes by scope (relay.store.passkeys)."""

from __future__ import annotations

import dataclasses

from relay.core.errors import RelayError
from relay.core.passkeys import Passkey

__all__ = ["MemoryPasskeys"]


class MemoryPasskeys:
    """The memory store's passkeys, challenges and codes."""

    SWEEP_EVERY = 256
    """Holds between two sweeps of every scope (a scope of one key is touched once or twice,
    so its expired items would otherwise stay)."""

    def __init__(self) -> None:
        self._pending: dict[str, dict[str, tuple[float, str]]] = {}
        """Scope -> item -> (until, value)."""
        self._holds = 0
        self._keys: dict[str, Passkey] = {}
        """Credential id -> its passkey."""
        self._owned: dict[str, list[str]] = {}
        """A player key's digest -> its credential ids, oldest first."""

    async def hold(
        self, scope: str, item: str, value: str, until: float, now: float, most: int
    ) -> bool:
        """Keeps a pending item (Passkeys.hold)."""
        self._holds += 1
        if self._holds % self.SWEEP_EVERY == 0:
            self._sweep(now)
        held = self._pending.setdefault(scope, {})
        for old in [old for old, (ends, _) in held.items() if ends <= now]:
            del held[old]
        if len(held) >= most or item in held:
            return False
        held[item] = (until, value)
        return True

    def _sweep(self, now: float) -> None:
        """Drops every expired item, and every scope left empty."""
        for scope, held in list(self._pending.items()):
            kept = {item: found for item, found in held.items() if found[0] > now}
            if kept:
                self._pending[scope] = kept
            else:
                del self._pending[scope]

    async def take(self, scope: str, item: str, now: float) -> str | None:
        """Takes a pending item once (Passkeys.take)."""
        held = self._pending.get(scope)
        found = None if held is None else held.pop(item, None)
        if held is not None and not held:
            del self._pending[scope]
        if found is None or found[0] <= now:
            return None
        return found[1]

    async def add(self, passkey: Passkey, per_player: int, most: int) -> bool:
        """Binds a passkey (Passkeys.add)."""
        if passkey.id in self._keys:
            return False
        owned = self._owned.get(passkey.owner, [])
        if len(owned) >= per_player or len(self._keys) >= most:
            raise RelayError("passkey/full")
        self._owned[passkey.owner] = [*owned, passkey.id]
        self._keys[passkey.id] = passkey
        return True

    async def listed(self, owner: str) -> list[Passkey]:
        """Returns a key's passkeys, oldest first (Passkeys.listed)."""
        return [self._keys[credential] for credential in self._owned.get(owner, [])]

    async def remove(self, owner: str, credential: str) -> bool:
        """Unbinds a passkey (Passkeys.remove)."""
        owned = self._owned.get(owner, [])
        if credential not in owned:
            return False
        owned.remove(credential)
        if not owned:
            del self._owned[owner]
        del self._keys[credential]
        return True

    async def find(self, credential: str) -> Passkey | None:
        """Returns a credential's passkey (Passkeys.find)."""
        return self._keys.get(credential)

    async def used(self, passkey: Passkey, sign_count: int) -> None:
        """Keeps a passkey's new counter (Passkeys.used)."""
        if passkey.id in self._keys:
            self._keys[passkey.id] = dataclasses.replace(passkey, sign_count=sign_count)

"""The embedded store: every match in this process's memory; nothing to install.

It is made of the parts the Store protocol names, each over one registry of matches
(relay.store.memory.registry): matches (with seeks, act, waits and reaper), tables, lobbies,
rematches, players and hooks, its moderation and passkeys."""

from __future__ import annotations

from relay.core.model import StoreSettings
from relay.store.memory.challenges import MemoryChallenges
from relay.store.memory.hooks import MemoryHooks
from relay.store.memory.lobby import MemoryLobbies
from relay.store.memory.match import Held
from relay.store.memory.matches import MemoryMatches
from relay.store.memory.moderation import MemoryModeration
from relay.store.memory.passkeys import MemoryPasskeys
from relay.store.memory.players import MemoryPlayers
from relay.store.memory.push import MemoryPush
from relay.store.memory.registry import Registry
from relay.store.memory.rematch import MemoryRematches
from relay.store.memory.tables import MemoryTables

__all__ = ["Held", "MemoryStore", "open_url"]


class MemoryStore:
    """Keeps matches in memory: fast, single-process, lost on restart."""

    heard = 0
    """One process: nothing to hear from others (see Store.heard)."""

    def __init__(self, settings: StoreSettings | None = None) -> None:
        self.settings = settings or StoreSettings()
        self.registry = Registry(self.settings)
        """Every match, and what the parts share."""
        self.matches = MemoryMatches(self.registry)
        self.immediate: MemoryMatches | None = self.matches
        """Answers at once (poll_now, act_hashed, watch); see Store.immediate."""
        self.tables = MemoryTables(self.registry)
        self.lobbies = MemoryLobbies(self.registry)
        self.rematches = MemoryRematches(self.registry)
        self.players = MemoryPlayers(self.registry)
        self.hooks = MemoryHooks(self.registry)
        self.moderation: MemoryModeration = self.registry.moderation
        """Bans, reports, blocks, voids and erasures (relay.store.moderation)."""
        self.passkeys = MemoryPasskeys()
        """Passkeys, pending challenges and transfer codes (relay.store.passkeys)."""
        self.push = MemoryPush()
        """The browsers each player key is pushed to (relay.store.push)."""
        self.challenges = MemoryChallenges(self.registry)
        """Challenges between player keys, and follows (relay.store.challenges)."""

    async def wake_all(self) -> None:
        """Answers every wait held in this process at once, and holds no new ones."""
        reg = self.registry
        reg.closing = True
        for state in reg.matches.values():
            state.wake_all()
        reg.wakes.notify_all()

    async def close(self) -> None:
        """Releases nothing: the memory store holds no connections."""


def open_url(url: str, settings: StoreSettings) -> MemoryStore:
    """Returns a new memory store (its URL is 'memory'; see relay.store.open)."""
    return MemoryStore(settings)

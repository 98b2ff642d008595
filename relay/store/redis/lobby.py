"""Lobbies in the Redis store: the calls that run their scripts (lua/lobby_*.lua, lua/trim.lua).

Each game's lobby has keys of its own, under the game's hash tag (`relay.store.redis.keys`),
touched only by these scripts (never by a match's):

- ``P{g:G}lobby:open``, ``P{g:G}lobby:live``, ``P{g:G}lobby:recent``  lists of match ids,
  newest first, at most lobby_size each
- ``P{g:G}lobby:t``  hash: match id -> when it was listed (the seek, or the start of play)
- ``P{g:G}lobby:v``  string: the lobby's version, grown by one with each change
- ``P{g:G}wl``       sharded channel: 'x' at each change

A reader looks each listed match up and heals the lists (LOBBY_MOVE): an entry whose match
is gone is dropped, one whose match started or ended moves on."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import cast

from relay.core.lobby import KINDS, Lobby, LobbyEntry, LobbyKind, heal
from relay.core.model import MatchInfo, Status
from relay.store.redis import keys as redis_keys
from relay.store.redis.connection import Connection
from relay.store.redis.waits import wait_notice

__all__ = ["RedisLobbies"]


class RedisLobbies:
    """The Lobbies part of the Redis store."""

    def __init__(self, store: Connection) -> None:
        self.store = store
        self.layout = redis_keys.Layout(store.prefix)

    def _key(self, game: str, what: str) -> str:
        return f"{self.store.prefix}{{g:{game}}}lobby:{what}"

    def channel(self, game: str) -> str:
        """Returns the channel on which changes to the game's lobby are announced."""
        return f"{self.store.prefix}{{g:{game}}}wl"

    async def add(self, game: str, kind: LobbyKind, match: str, now: float) -> None:
        """Lists match first in the game's list of that kind."""
        keys = [self._key(game, kind), self._key(game, "t"), self._key(game, "v")]
        args = [match, repr(float(now)), self.store.settings.lobby_size, self.channel(game), game]
        await self.store.call("LOBBY_ADD", keys, args)

    async def promote(self, game: str, match: str, now: float) -> None:
        """Moves a listed open seek to the live list."""
        await self.move(game, match, "open", "live", repr(float(now)))

    async def wait(self, game: str, after: int, timeout: float) -> None:
        """Returns once the game's lobby version is above after, or after timeout."""

        async def ready() -> bool:
            return await self.version(game) > after

        await wait_notice(self.store, self.channel(game), ready, timeout)

    async def move(
        self, game: str, match: str, old: LobbyKind, new: LobbyKind | None, since: str
    ) -> int:
        """Moves match from the list old to new (None: drops it); returns the version, or 0
        when it was not on old (another reader moved it first)."""
        keys = [
            self._key(game, old),
            self._key(game, new or old),
            self._key(game, "t"),
            self._key(game, "v"),
        ]
        size = self.store.settings.lobby_size
        args = [match, since, size, self.channel(game), game, "1" if new is None else "0"]
        return int(await self.store.call("LOBBY_MOVE", keys, args))

    async def version(self, game: str) -> int:
        """Returns the game's lobby version."""
        reply = (await self.store.client()).get(self._key(game, "v"))
        found = await self.store.guard(cast(Awaitable[bytes | None], reply))
        return int(found or 0)

    async def read(self, game: str) -> Lobby:
        """Returns the game's lobby, healing entries whose match changed."""
        store = self.store
        client = await store.client()
        pipe = client.pipeline(transaction=False)
        pipe.get(self._key(game, "v"))
        for kind in KINDS:
            pipe.lrange(self._key(game, kind), 0, -1)
        pipe.hgetall(self._key(game, "t"))
        version_raw, *lists_raw, times_raw = await store.guard(pipe.execute())
        lists: list[list[bytes]] = lists_raw
        times: dict[bytes, bytes] = times_raw
        version = int(version_raw or 0)
        ids = [listed for each in lists for listed in each]
        if not ids:
            return Lobby(game, version, ())
        pipe = client.pipeline(transaction=False)
        for listed in ids:
            pipe.hmget(self.layout.match(listed.decode()), list(redis_keys.INFO_FIELDS))
        looked: list[list[bytes | None]] = await store.guard(pipe.execute())
        infos = iter(looked)
        entries: list[LobbyEntry] = []
        for kind, members in zip(KINDS, lists, strict=True):
            for raw in members:
                match = raw.decode()
                info = _info(match, next(infos))
                now_kind = heal(kind, info)
                since = float(times.get(raw, b"0"))
                if now_kind == kind and info is not None:
                    entries.append(LobbyEntry(kind, since, info))
                    continue
                moved = await self.move(game, match, kind, now_kind, "")
                version = max(version, moved)
                if now_kind is not None and info is not None:
                    entries.append(LobbyEntry(now_kind, since, info))
        order = {kind: i for i, kind in enumerate(KINDS)}
        entries.sort(key=lambda e: (order[e.kind], -e.since))
        return Lobby(game, version, tuple(entries))


def _info(match: str, values: list[bytes | None]) -> MatchInfo | None:
    """Returns the listed match's summary; None when it is gone or expired."""
    found = redis_keys.match_info(match, values)
    return None if found is None or found.status == Status.EXPIRED else found

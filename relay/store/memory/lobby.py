"""The memory store's lobby lists, its Lobbies part: per game and kind, the newest listed
matches (the twin of relay.store.redis.lobby)."""

from __future__ import annotations

from collections import deque

from relay.core.lobby import KINDS, Lobby, LobbyEntry, LobbyKind, heal
from relay.core.model import MatchInfo
from relay.store.memory.registry import Registry

__all__ = ["MemoryLobbies"]


class _Lists:
    """One game's lobby: a version and, per kind, (match, since) pairs, newest first."""

    __slots__ = ("kinds", "version")

    def __init__(self, size: int) -> None:
        self.version = 0
        self.kinds: dict[LobbyKind, deque[tuple[str, float]]] = {
            kind: deque(maxlen=size) for kind in KINDS
        }


class MemoryLobbies:
    """Every game's lobby lists; entries point to matches, looked up when read."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg
        self._size = reg.settings.lobby_size
        self._games: dict[str, _Lists] = {}

    def _lists(self, game: str) -> _Lists:
        lists = self._games.get(game)
        if lists is None:
            lists = self._games[game] = _Lists(self._size)
        return lists

    def _changed(self, game: str, lists: _Lists) -> None:
        lists.version += 1
        self.reg.wakes.notify(lobby_key(game))

    async def add(self, game: str, kind: LobbyKind, match: str, now: float) -> None:
        """Lists match first in the game's list of that kind (once)."""
        lists = self._lists(game)
        entries = lists.kinds[kind]
        for entry in [e for e in entries if e[0] == match]:
            entries.remove(entry)
        entries.appendleft((match, now))
        self._changed(game, lists)

    async def promote(self, game: str, match: str, now: float) -> None:
        """Moves match from the open list to the live list, if it is on the open list."""
        lists = self._games.get(game)
        if lists is None:
            return
        found = [e for e in lists.kinds["open"] if e[0] == match]
        if found:
            lists.kinds["open"].remove(found[0])
            lists.kinds["live"].appendleft((match, now))
            self._changed(game, lists)

    async def read(self, game: str) -> Lobby:
        """Returns the game's lobby; drops entries whose match is gone and moves those that
        changed list."""
        lists = self._games.get(game)
        if lists is None:
            return Lobby(game, 0, ())
        changed = False
        read: list[LobbyEntry] = []
        for kind in KINDS:
            for match, since in list(lists.kinds[kind]):
                info = self._look(match)
                now_kind = heal(kind, info)
                if now_kind == kind and info is not None:
                    read.append(LobbyEntry(kind, since, info))
                    continue
                lists.kinds[kind].remove((match, since))
                changed = True
                if now_kind is not None:
                    # Read again when its new list's turn comes (kinds are read in order).
                    lists.kinds[now_kind].appendleft((match, since))
        if changed:
            self._changed(game, lists)
        return Lobby(game, lists.version, tuple(read))

    def _look(self, match: str) -> MatchInfo | None:
        """Returns a listed match's summary, or None when it is forgotten."""
        state = self.reg.matches.get(match)
        return None if state is None else self.reg.summary(state)

    async def wait(self, game: str, after: int, timeout: float) -> None:
        """Returns at the next change of the game's lobby, or after timeout."""
        if not self.reg.closing:
            await self.reg.wakes.wait(lobby_key(game), timeout)


def lobby_key(game: str) -> str:
    """Returns the wake key of a game's lobby."""
    return f"lobby:{game}"

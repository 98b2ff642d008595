"""The endpoints of the lobby: a game's open and live matches (long-polled), and the games
this relay hosts."""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import cast

import orjson

from relay.api.calls import Call, Reply
from relay.api.fields.request import identifier_field, query_int, query_seconds
from relay.api.holds import Holds
from relay.config import Config
from relay.core.games import games_json
from relay.core.lobby import KINDS, lobby_entry_json
from relay.store.base import Store

__all__ = ["LobbyEndpoints"]

LOBBY_POLLS_PER_SEAT = 8
"""Held lobby polls a client address may have, per --polls-per-seat."""

LOBBY_RECHECK = 5.0
"""Seconds a held lobby poll trusts notifications before it reads the lobby again (a match
that started or ended changes its lists only when a reader sees it)."""


class LobbyEndpoints:
    """The lobby's endpoints, over one store, with the process's holds."""

    def __init__(
        self, config: Config, store: Store, holds: Holds, refereed: Collection[str] = ()
    ) -> None:
        self.config = config
        self.store = store
        self.holds = holds
        self._games = games_json(config.games, refereed)
        """The answer of GET /v1/games: the games are read once, at start."""

    async def lobby(self, call: Call) -> Reply:
        """GET /v1/lobby?game=G[&after=V]: a game's lobby, held while its version is at most V."""
        query = call.query
        game = identifier_field(dict(query), "game", required=True)
        assert game is not None
        after = query_int(query.get("after"), "after", 0) if "after" in query else None
        hold = self.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        lobby = await self.store.lobbies.read(game)
        if after is not None and lobby.version <= after and hold > 0 and not self.holds.closing:
            key = self.holds.take("lobby", call.client, self._lobby_polls())
            try:
                deadline = time.monotonic() + hold
                while lobby.version <= after and not self.holds.closing:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    await self.store.lobbies.wait(game, after, min(left, LOBBY_RECHECK))
                    lobby = await self.store.lobbies.read(game)
            finally:
                self.holds.release(key)
        answer: dict[str, object] = {"game": game, "version": lobby.version}
        for kind in KINDS:
            answer[kind] = [lobby_entry_json(e) for e in lobby.entries if e.kind == kind]
        waiting = answer["open"]
        if waiting:
            await self._seeker_ratings(game, cast(list[dict[str, object]], waiting))
        return 200, orjson.dumps(answer)

    async def _seeker_ratings(self, game: str, entries: list[dict[str, object]]) -> None:
        """Gives each open entry its waiting seeker's rating as shown (null: no player key,
        or no ratings kept)."""
        now = time.time()
        for entry in entries:
            shown = None
            if self.config.store.ratings is not None:
                shown = await self.store.players.seeker_rating(game, str(entry["match"]), now)
            entry["rating"] = shown

    def _lobby_polls(self) -> int:
        """Lobby polls one client address may hold at once: several pages behind one address
        (a household, an office) each watch a lobby."""
        return LOBBY_POLLS_PER_SEAT * self.config.polls_per_seat

    async def games(self, call: Call) -> Reply:
        """GET /v1/games: the games hosted."""
        return 200, self._games

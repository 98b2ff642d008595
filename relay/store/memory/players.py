"""What the memory store keeps of each player key, its Players part: the key's matches, its
display name's look, its ratings and the leaderboard (the twin of relay.store.redis.players)."""

from __future__ import annotations

from typing import Any

import orjson

from relay.core.model import hash_token
from relay.core.players import PlayerMatch
from relay.core.verdicts import result_of
from relay.store.memory.match import EXPIRED, FINISHED
from relay.store.memory.registry import Registry

__all__ = ["MemoryPlayers"]


class MemoryPlayers:
    """The Players part of the memory store."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg

    async def matches(self, player: str, now: float) -> list[PlayerMatch]:
        """Returns the matches the player key seated that the store still holds."""
        reg = self.reg
        digest = hash_token(player)
        listed: list[PlayerMatch] = []
        for match, opened in reg.keys.listed(digest):
            state = reg.matches.get(match)
            if state is None or state.status is EXPIRED:
                continue
            seat = 0 if state.players[0] == digest else 1
            result = None
            if state.status is FINISHED:
                result = result_of(orjson.loads(state.events[-1]), state.claim)
            rated = reg.ratings.of_match(match)
            change = None if rated is None else rated.pairs()[seat]
            listed.append(
                PlayerMatch(reg.summary(state), seat, opened, state.since, result, change)
            )
        return listed

    async def claim_name(self, skeletons: tuple[str, ...], player: str | None, now: float) -> bool:
        """Binds a display name's skeletons to the player key, or checks them (Players)."""
        digest = "" if player is None else hash_token(player)
        return self.reg.names.claim(skeletons, digest, now, self.reg.settings.name_hold)

    async def ratings(self, player: str, game: str | None, now: float) -> list[Any]:
        """Returns the key's ratings, with their histories (see Players.ratings)."""
        return self.reg.ratings.player(hash_token(player), game, now)

    async def leaderboard(self, game: str, limit: int, now: float) -> list[Any]:
        """Returns the game's leaderboard rows (see Players.leaderboard)."""
        return self.reg.ratings.board(game, limit, now)

    async def seeker_rating(self, game: str, match: str, now: float) -> str | None:
        """Returns the rating of the key that opened the match (see Players.seeker_rating)."""
        state = self.reg.matches.get(match)
        if state is None or not state.players[0]:
            return None
        return self.reg.ratings.shown_of(game, state.players[0], now)

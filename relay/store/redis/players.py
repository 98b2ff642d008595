"""What the Redis store keeps of each player key, its Players part: the key's matches
(relay.store.redis.key_lists), its display name's look (names), its ratings and the
leaderboard (ratings)."""

from __future__ import annotations

from typing import Any

from relay.core.model import hash_token
from relay.core.players import PlayerMatch
from relay.store.redis.connection import Connection
from relay.store.redis.key_lists import RedisKeyLists
from relay.store.redis.names import RedisNames
from relay.store.redis.ratings import RedisRatings

__all__ = ["RedisPlayers"]


class RedisPlayers:
    """The Players part of the Redis store."""

    def __init__(
        self, link: Connection, keys: RedisKeyLists, names: RedisNames, ratings: RedisRatings
    ) -> None:
        self.link = link
        self._keys = keys
        self._names = names
        self._ratings = ratings

    async def matches(self, player: str, now: float) -> list[PlayerMatch]:
        """Returns the matches the player key seated that the store still holds."""
        return await self._keys.matches(hash_token(player), now)

    async def claim_name(self, skeletons: tuple[str, ...], player: str | None, now: float) -> bool:
        """Binds a display name's skeletons to the player key, or checks them (Players)."""
        return await self._names.claim(skeletons, player, now)

    async def ratings(self, player: str, game: str | None, now: float) -> list[Any]:
        """Returns the key's ratings, with their histories (see Players.ratings)."""
        return await self._ratings.player(hash_token(player), game, now)

    async def leaderboard(self, game: str, limit: int, now: float) -> list[Any]:
        """Returns the game's leaderboard rows (see Players.leaderboard)."""
        return await self._ratings.board(game, limit, now)

    async def seeker_rating(self, game: str, match: str, now: float) -> str | None:
        """Returns the rating of the key that opened the match (see Players.seeker_rating)."""
        client = await self.link.client()
        digest = await self.link.guard(client.hget(self.link.layout.match(match), "p0"))
        if digest is None:
            return None
        return await self._ratings.shown_of(game, digest.decode(), now)

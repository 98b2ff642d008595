"""The endpoints of a player: a seek (a seat in a waiting match, or a new one), the
matches and ratings of a player key, and a game's leaderboard."""

from __future__ import annotations

import time
from typing import Any

import orjson

from relay.api.calls import Call, Reply
from relay.api.fields.request import (
    bool_field,
    identifier_field,
    json_body,
    query_int,
    require_player,
)
from relay.api.fields.seek import (
    contact_field,
    control_field,
    display_name_field,
    player_field,
    range_field,
)
from relay.api.limits import RateLimiter
from relay.api.moderation import check_ban
from relay.config import Config
from relay.core.errors import RelayError
from relay.core.model import hash_token
from relay.core.patterns import KEY
from relay.core.players import listing
from relay.core.rated import NO_RATINGS
from relay.core.standings import BOARD_DEFAULT, BOARD_LIMIT
from relay.core.table import NAME_MOST
from relay.core.text_policy import NAME_TAKEN, shown_once, skeletons
from relay.store.base import Store

__all__ = ["PlayerEndpoints"]

TOKEN = KEY
"""A seeker's own token: 32 to 128 URL-safe characters, which it must draw at random."""

BAD_TOKEN = "The field 'token' must be 32 to 128 random characters from A-Z a-z 0-9 _ -."


class PlayerEndpoints:
    """A player's endpoints, over one store, with the process's seek rate."""

    def __init__(self, config: Config, store: Store) -> None:
        self.config = config
        self.store = store
        self.seek_limiter = RateLimiter.per_minute(config.seeks_per_minute)

    async def seek(self, call: Call) -> Reply:
        """POST /v1/seek: takes a seat in a waiting match, or opens one."""
        now = time.time()
        wait = self.seek_limiter.take(call.client, now)
        if wait:
            raise RelayError("limit/seeks", retry_after=wait)
        body = json_body(call.content_type, call.body)
        game = identifier_field(body, "game", required=True)
        assert game is not None
        version = identifier_field(body, "version", required=False, empty=True) or ""
        room = identifier_field(body, "room", required=False)
        token = body.get("token")
        if token is not None and (not isinstance(token, str) or TOKEN.fullmatch(token) is None):
            raise RelayError("request/invalid", BAD_TOKEN)
        public = bool_field(body, "public", False)
        control = control_field(body)
        player = player_field(body)
        contact = contact_field(body)
        name = display_name_field(body) if self.config.names else None
        rating_range = range_field(body)
        if rating_range is not None and self.config.store.ratings is None:
            raise RelayError("request/invalid", NO_RATINGS)
        await check_ban(self.store, (hash_token(player) if player else "",), call.client, now)
        if name is not None and not await self.store.players.claim_name(
            skeletons(name), player, now
        ):
            raise RelayError("name/taken", NAME_TAKEN.format(name))
        ticket = await self.store.matches.seek(
            game, version, room, now, token, control, player, contact, name, rating_range
        )
        # The lobby is kept by calls of its own, after the seek's: a lost one only leaves the
        # lobby behind until a reader heals it.
        if ticket.seat == 0 and public:
            await self.store.lobbies.add(game, "open", ticket.match, now)
        elif ticket.seat == 1:
            await self.store.lobbies.promote(game, ticket.match, now)
        return 201, orjson.dumps(
            {"match": ticket.match, "seat": ticket.seat, "token": ticket.token}
        )

    async def player_matches(self, call: Call) -> Reply:
        """GET /v1/player/matches: every match the bearer's player key seated, still held."""
        player = require_player(call.authorization)
        now = time.time()
        found = await self.store.players.matches(player, now)
        return 200, orjson.dumps({"matches": listing(found, now, self.config.names)})

    async def player_ratings(self, call: Call) -> Reply:
        """GET /v1/player/ratings[?game=G]: the bearer's player key's ratings and histories."""
        player = require_player(call.authorization)
        game = identifier_field(dict(call.query), "game", required=False)
        found: list[Any] = []
        if self.config.store.ratings is not None:
            found = await self.store.players.ratings(player, game, time.time())
        return 200, orjson.dumps({"ratings": found})

    async def leaderboard(self, call: Call) -> Reply:
        """GET /v1/games/{game}/leaderboard[?limit=N]: the game's established ratings, best
        first."""
        game = identifier_field({"game": call.match}, "game", required=True)
        assert game is not None
        limit = query_int(call.query.get("limit"), "limit", BOARD_DEFAULT)
        if not 1 <= limit <= BOARD_LIMIT:
            raise RelayError(
                "request/invalid",
                f"The parameter 'limit' must be a whole number from 1 to {BOARD_LIMIT}, "
                f"not {limit!r}.",
            )
        rows: list[Any] = []
        if self.config.store.ratings is not None:
            rows = await self.store.players.leaderboard(game, limit, time.time())
            if not self.config.names:
                for row in rows:
                    row["name"] = None
            shown_once(rows, NAME_MOST)
        return 200, orjson.dumps({"game": game, "players": rows})

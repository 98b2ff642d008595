"""PlayerCalls: the protocol calls of a player key: its matches, its ratings and the
leaderboards, the keys it blocked or muted, and the challenges made to it and by it
(`/v1/player/...`, `/v1/games/.../leaderboard`)."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import quote

from sdk.challenges import Challenge, Challenges, parse_challenge, parse_challenges
from sdk.errors import ProtocolError
from sdk.moderation import Blocked, BlockKind, parse_blocks
from sdk.players import PlayerMatch
from sdk.ratings import Leaderboard, PlayerRating, parse_leaderboard, parse_ratings
from sdk.transport import NOT_AN_ANSWER, Transport

__all__ = ["Colour", "PlayerCalls"]

_ONCE = frozenset({408})
"""The 4xx answers a challenge is sent again on: a rate limit's 429 is told at once."""

Colour = Literal["first", "second", "random"]
"""Who moves first in a challenge's match, as the challenger asks: itself, the other, a coin."""


class PlayerCalls(Transport):
    """The calls of a player key, each retried through transient faults (RelayClient has
    them, with the match's calls)."""

    async def player_matches(self, player: str) -> list[PlayerMatch]:
        """Returns the matches a player key seated that the relay still holds: the key's
        turn first (least time left first), then the partner's, waiting seeks, finished."""
        answer = await self._call("GET", "/v1/player/matches", player, None)
        try:
            return [PlayerMatch.from_json(row) for row in answer["matches"]]
        except (KeyError, TypeError, ValueError):
            raise ProtocolError(NOT_AN_ANSWER.format(what="player matches", body=answer)) from None

    async def leaderboard(self, game: str, limit: int | None = None) -> Leaderboard:
        """Returns the game's leaderboard: its established ratings, best first (at most
        `limit`; the relay's default without)."""
        path = f"/v1/games/{quote(game, safe='')}/leaderboard"
        if limit is not None:
            path += f"?limit={limit}"
        return parse_leaderboard(await self._call("GET", path, None, None))

    async def ratings(self, player: str, game: str | None = None) -> list[PlayerRating]:
        """Returns a player key's rating in each game it played rated (in `game` only, when
        given), each with its latest rated matches, newest first; none for an unknown key."""
        path = "/v1/player/ratings"
        if game is not None:
            path += f"?game={quote(game, safe='')}"
        return parse_ratings(await self._call("GET", path, player, None))

    async def blocks(self, player: str) -> list[Blocked]:
        """Returns the keys a player key blocked or muted, newest first."""
        return parse_blocks(await self._call("GET", "/v1/player/blocks", player, None))

    async def block(self, player: str, match: str, kind: BlockKind = "block") -> list[Blocked]:
        """Blocks (never paired again, chat hidden) or mutes (chat hidden) the partner of a
        match the player key sat in; returns the key's blocks."""
        body = {"kind": kind, "match": match}
        return parse_blocks(await self._call("POST", "/v1/player/blocks", player, body))

    async def unblock(self, player: str, public_id: str) -> list[Blocked]:
        """Lifts a block or mute of a public id; returns the key's blocks."""
        body = {"kind": "none", "id": public_id}
        return parse_blocks(await self._call("POST", "/v1/player/blocks", player, body))

    async def challenge(
        self,
        player: str,
        to: str,
        game: str,
        version: str = "",
        *,
        time_control: dict[str, Any] | None = None,
        colour: Colour = "random",
        rated: bool = False,
        name: str | None = None,
    ) -> Challenge:
        """Challenges the key of a public id (a leaderboard's or a match's `players`) to a
        match of game on these terms: the clock as a seek's, who moves first ('first' or
        'second' is the challenger's, 'random' a coin at the accept), rated or not, under
        `name`. Answers the open challenge; a refusal (blocked, full, too fast) is raised at
        once, a rate limit's 429 too (its retry_after says when). Sent again after an answer
        was lost, it is refused challenge/open: the first stands."""
        body: dict[str, Any] = {"to": to, "game": game, "version": version, "colour": colour,
                                "rated": rated, "time_control": time_control}  # fmt: skip
        if name is not None:
            body["name"] = name
        path = "/v1/player/challenges"
        return parse_challenge(await self._call("POST", path, player, body, retried=_ONCE))

    async def withdraw_challenge(self, player: str, challenge: str) -> Challenge:
        """Withdraws a challenge the player key made, while it is open."""
        return await self._answer_challenge(player, {"id": challenge, "action": "withdraw"})

    async def challenges(self, player: str) -> Challenges:
        """Returns the challenges made to the player key and by it, open ones first."""
        return parse_challenges(await self._call("GET", "/v1/player/challenges", player, None))

    async def accept_challenge(
        self, player: str, challenge: str, name: str | None = None
    ) -> Challenge:
        """Accepts a challenge made to the player key (under `name`, if given): the relay makes
        and starts its match, which the key then plays as any of its matches (player_matches,
        and the key as the seat's token). Accepting again answers the same match."""
        body = {"id": challenge, "action": "accept"}
        if name is not None:
            body["name"] = name
        return await self._answer_challenge(player, body)

    async def decline_challenge(self, player: str, challenge: str) -> Challenge:
        """Declines a challenge made to the player key."""
        return await self._answer_challenge(player, {"id": challenge, "action": "decline"})

    async def _answer_challenge(self, player: str, body: dict[str, str]) -> Challenge:
        path = "/v1/player/challenges/answer"
        return parse_challenge(await self._call("POST", path, player, body))

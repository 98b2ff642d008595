"""The table around a match in the Redis store (relay.core.table): its scripts' calls and
answers. The table lives in the match's own hash (fields 'tv', 'n0'/'n1', 'g0'/'g1',
'a0'/'a1', 'ok'/'ob'/'oa'/'os'/'oc', 'uz'; lua/offer.lua names them) and its chat in a list
beside the log ('c:ID'); a change is told ('t') on both of the match's event channels, so that
the wait a poll holds anyway hears it."""

from __future__ import annotations

from typing import Any, cast

import orjson

from relay.core.errors import RelayError
from relay.core.model import Action, Event, StoreSettings, hash_token
from relay.core.table import (
    AWAY,
    CHAT_KEEP,
    CHAT_SAME,
    ChatLine,
    Offer,
    OfferKind,
    OfferState,
    Table,
    settle,
)
from relay.store.redis.connection import Connection
from relay.store.redis.keys import Layout
from relay.store.redis.matches import RedisMatches
from relay.store.redis.refusals import Refusal, act_error, read_error

__all__ = ["RedisTables"]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def too_fast(refusal: Refusal) -> RelayError:
    """Returns the error of a table write past its seat's pace, with the wait it answered."""
    return RelayError(refusal.code, retry_after=float(refusal.detail or 1.0))


class RedisTables:
    """The Tables part of the Redis store; its table-aware poll and write are the match's
    POLL and ACT scripts, asked for the table's version too."""

    def __init__(self, link: Connection, matches: RedisMatches) -> None:
        self.link = link
        self.layout = Layout(link.prefix)
        self._matches = matches

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event], int]:
        """Matches.poll, and the table's version (one script call)."""
        return await self._matches.polled(match, token, after, now)

    async def act(self, match: str, token: str, action: Action, now: float) -> tuple[int, int]:
        """Matches.act, and the table's version (one script call)."""
        return await self._matches.acted(match, token, action, now, True)

    @property
    def settings(self) -> StoreSettings:
        """The store's settings."""
        return self.link.settings

    async def present(self, match: str, seat: int, now: float) -> bool:
        """Whether the seat may hold a poll on the match (see Tables.present): its 'seen' and
        'g' fields read by the rule of match_prelude.lua's absent()."""
        client = await self.link.client()
        key = self.layout.match(match)
        fields = ("status", f"seen{seat}", f"g{seat}")
        status, seen, gone = await self.link.guard(client.hmget(key, *fields))
        if status is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        polled, left = float(seen or 0), float(gone or 0)
        if left >= polled and left + AWAY <= now:
            return False
        return polled + self.settings.hold + AWAY >= now

    async def read(
        self, match: str, token: str | None, chat_after: int, now: float
    ) -> tuple[int | None, Table]:
        """Runs TABLE: the reader's seat and the match's table."""
        digest = "" if token is None else hash_token(token)
        # A cursor past the most lines a chat keeps reads none (and stays an integer in Lua).
        chat_after = min(chat_after, CHAT_KEEP)
        try:
            answer = await self.link.on_match("TABLE", match, now, digest, chat_after)
        except Refusal as refusal:
            raise read_error(refusal, match) from None
        _, seat, status, values, lines = answer
        return (None if seat < 0 else int(seat)), self._table(_text(status), values, lines)

    def _table(self, status: str, values: list[Any], lines: list[bytes]) -> Table:
        """Makes a table from TABLE's fields (lua/table.lua) as its readers see it."""
        tv, n0, n1, a0, a1, seen0, seen1, kind, by, at, state, count, last, tc, tat = (
            _text(value) for value in values
        )
        settings = self.settings
        playing = status == "playing"
        abandons = playing and not tc.startswith("deadline:")
        abandon_at = (
            float(seen0) + settings.grace if abandons and a0 else None,
            float(seen1) + settings.grace if abandons and a1 else None,
        )
        offer = None
        if kind in ("draw", "takeback"):
            known_kind = cast(OfferKind, kind)
            known_state = cast(OfferState, state)
            offer = Offer(known_kind, int(by), int(at), known_state, int(count or 0))
        claim_at = None
        if playing and not tc and tat and settings.claim_after > 0:
            claim_at = int(tat) / 1000 + settings.claim_after
        chat = []
        for raw in lines:
            line = orjson.loads(raw)
            chat.append(
                ChatLine(int(line["n"]), int(line["seat"]), line["text"], line["at"], line["time"])
            )
        return Table(
            int(tv or 0) + 1,
            (n0 or None, n1 or None),
            (float(a0) if a0 else None, float(a1) if a1 else None),
            abandon_at,
            settle(offer, int(last or 0), playing),
            tuple(chat),
            claim_at,
            settings.claim_after if not tc and settings.claim_after > 0 else None,
        )

    async def offer(self, match: str, token: str, kind: OfferKind, after: int, now: float) -> Table:
        """Has the token's seat offer a draw or ask a takeback; returns the table."""
        await self._offer(match, token, "offer", kind, after, now)
        return (await self.read(match, None, 0, now))[1]

    async def decline(self, match: str, token: str, now: float) -> Table:
        """Has the token's seat decline the partner's offer or withdraw its own."""
        await self._offer(match, token, "decline", "", 0, now)
        return (await self.read(match, None, 0, now))[1]

    async def _offer(
        self, match: str, token: str, op: str, kind: str, after: int, now: float
    ) -> None:
        """Runs OFFER: the token's seat offers (op 'offer') or declines (op 'decline')."""
        try:
            await self.link.on_match(
                "OFFER", match, now, hash_token(token), op, kind, after,
                self.settings.offers_per_minute,
            )  # fmt: skip
        except Refusal as refusal:
            if refusal.code == "offer/too_fast":
                raise too_fast(refusal) from None
            raise act_error(refusal, match, after, self.settings) from None

    async def chat(self, match: str, token: str, text: str, now: float) -> int:
        """Runs CHAT: a line said by the token's seat; answers its number."""
        try:
            answer = await self.link.on_match(
                "CHAT", match, now, hash_token(token), orjson.dumps(text), CHAT_KEEP, CHAT_SAME,
                self.settings.chat_per_minute,
            )  # fmt: skip
        except Refusal as refusal:
            if refusal.code == "chat/too_fast":
                raise too_fast(refusal) from None
            raise read_error(refusal, match) from None
        return int(answer[1])

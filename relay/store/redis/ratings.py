"""Ratings in the Redis store, in each game's slot, each match rated exactly once
(docs/ratings.md).

Per game G and key digest D, under the game's tag: ``P{g:G}r:D`` (hash: rating, deviation,
volatility, games, at, ver, name), ``P{g:G}h:D`` (list: the history, newest first),
``P{g:G}board`` (sorted set: digest -> rating, established ratings) and ``P{g:G}rated:I``
(string: match I was rated, its ratings). Per key, ``P{p:D}games`` (set: the games it has
ratings in). A match that ends between two keys is marked pending in its own hash and listed
in its shard's ``torate`` set by the script that ends it; `settle` (run by the process that
ended it, and by the reaper for what is left) computes both ratings, writes them with
rate.lua (compare-and-set on both versions, once per match by the marker), then clears the
mark with rated.lua."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson

from relay.core.errors import RelayError
from relay.core.model import StoreSettings
from relay.core.rated import RatingRules, score_of
from relay.core.ratings import Rating, new_rating, shown
from relay.core.standings import (
    DAY,
    VOID_DAYS,
    Entry,
    Standing,
    board_fit,
    board_rows,
    met,
    rated_pair,
    standing_answer,
)
from relay.store.redis.keys import Layout
from relay.store.redis.link import Link

__all__ = ["MARKED", "SETTLE_AFTER", "RedisRatings"]

log = logging.getLogger("relay.store.redis")

MARKED = 86_400.0
"""Seconds a match's rated marker lasts at least (twice --keep, if that is longer): a settle
comes within seconds of the match's end, and none comes once the match is forgotten."""

SETTLE_AFTER = 1.0
"""Seconds a pending rating is left to the process that ended the match before the reaper
settles it."""

_STALE_TRIES = 20
"""Times a settle reads both ratings again after another match changed one meanwhile."""

_FIELDS = ["rating", "deviation", "volatility", "games", "at", "ver", "name"]


def _rating(row: list[bytes | None]) -> tuple[Rating, str, str | None]:
    """Returns a rating hash's rating, version and name (a new rating for none)."""
    if row[0] is None:
        return new_rating(), "0", None
    rating, deviation, volatility, games, at, version, name = (
        None if value is None else value.decode() for value in row
    )
    found = Rating(
        float(rating or 0),
        float(deviation or 0),
        float(volatility or 0),
        int(games or 0),
        None if not at else float(at),
    )
    return found, version or "0", name


class RedisRatings:
    """The Redis store's ratings (the store delegates to it)."""

    def __init__(self, store: Link, settings: StoreSettings) -> None:
        self.store = store
        self.settings = settings
        self.layout = Layout(store.prefix)
        self.prefix = store.prefix

    def _game(self, game: str) -> str:
        return f"{self.prefix}{{g:{game}}}"

    async def settle(self, match: str, now: float, tidy: bool = False) -> None:
        """Rates a match whose rating is pending (marked by the script that ended it), once,
        and clears the mark; does nothing for a match not pending (but, with tidy, drop its
        torate entry: the reaper's call)."""
        store = self.store
        tagged = self.layout.tagged(match)
        keys = [self.layout.match(match), f"{tagged}torate"]
        found = await store.call("PENDING", [keys[0], f"{tagged}e:{match}"], [])
        rate, game, p0, p1, n0, n1, claim, last = (value.decode() for value in found)
        if rate != "pending" or not (game and p0 and p1):
            if tidy:  # settled already, or forgotten meanwhile: its torate entry may be left
                await store.call("RATED", keys, [match, "no", ""])
            return
        rules = self.settings.ratings
        score = None
        if rules is not None and rules.rates(game) and last:
            score = score_of(orjson.loads(last), claim or None, rules)
        text = ""
        if score is not None and rules is not None:
            text = await self._write(game, match, (p0, p1), (n0, n1), score, now, rules)
        if text:
            # Each key lists the game before the mark is cleared: a process that dies between
            # the two leaves the match pending, and the reaper settles it again (the rating
            # itself once, by its marker; the lists are sets).
            client = await store.client()
            keep = max(1, round(rules.keep)) if rules is not None else 1
            for digest in (p0, p1):
                games = f"{self.prefix}{{p:{digest}}}games"
                await store.guard(client.sadd(games, game))
                await store.guard(client.expire(games, keep))
        await store.call("RATED", keys, [match, "done" if text else "no", text or ""])

    async def _write(
        self,
        game: str,
        match: str,
        digests: tuple[str, str],
        names: tuple[str | None, str | None],
        score: float,
        now: float,
        rules: RatingRules,
    ) -> str:
        """Writes both seats' ratings with rate.lua, reading again while either changed;
        returns the match's ratings as its marker holds them ('' when the pair had its
        rated results of the day: nothing written)."""
        store = self.store
        client = await store.client()
        tagged = self._game(game)
        keys = [
            f"{tagged}r:{digests[0]}",
            f"{tagged}r:{digests[1]}",
            f"{tagged}h:{digests[0]}",
            f"{tagged}h:{digests[1]}",
            f"{tagged}board",
            f"{tagged}rated:{match}",
            f"{tagged}pair:{':'.join(sorted(digests))}",
            f"{tagged}void:{match}",
        ]
        ttl = int(max(MARKED, 2 * self.settings.keep))
        for _ in range(_STALE_TRIES):
            rows = [await store.guard(client.hmget(keys[seat], _FIELDS)) for seat in (0, 1)]
            (zero, v0, _), (one, v1, _) = _rating(rows[0]), _rating(rows[1])
            met_rows = [
                await store.guard(client.hmget(keys[seat], ["first", "opp"])) for seat in (0, 1)
            ]
            new_zero, new_one, entry_zero, entry_one, done = rated_pair(
                match, zero, one, score, now
            )
            marker = " ".join(repr(value) for pair in done.pairs() for value in pair)
            args: list[Any] = [v0, v1]
            for seat, rating, entry, name, digest in (
                (0, new_zero, entry_zero, names[0], digests[0]),
                (1, new_one, entry_one, names[1], digests[1]),
            ):
                first_text, opp_text = (None if v is None else v.decode() for v in met_rows[seat])
                first = float(first_text or 0) or now
                opponents = met(tuple(filter(None, (opp_text or "").split(","))), digests[1 - seat])
                listed = board_fit(rating, first, opponents, now, rules)
                args += [
                    repr(rating.rating), repr(rating.deviation), repr(rating.volatility),
                    rating.games, repr(rating.at), name or "",
                    orjson.dumps(_entry_json(entry)), "1" if listed else "0", digest,
                    repr(first), ",".join(opponents),
                ]  # fmt: skip
            args += [marker, ttl, repr(now), rules.pair_daily, DAY, max(1, round(rules.keep))]
            record = {
                "game": game,
                "d": list(digests),
                "before": [_kept(rows[0], zero), _kept(rows[1], one)],
                "after": [_written(new_zero), _written(new_one)],
                "state": "rated",
            }
            args += [orjson.dumps(record), round(VOID_DAYS * DAY)]
            answer = await store.call("RATE", keys, args)
            if answer[0] == b"capped":
                return ""
            if answer[0] != b"stale":
                return str(answer[1].decode())
        raise RuntimeError(f"match {match!r}: its players' ratings kept changing")

    async def settle_pending(self, shard: int, now: float, most: int = 50) -> int:
        """Settles the pending ratings of a shard's matches that ended SETTLE_AFTER ago or
        more (their ender may have died before settling); returns how many."""
        tagged, _, _ = self.layout.shard(shard)
        due = await self.store.call("TORATE", [f"{tagged}torate"], [repr(now - SETTLE_AFTER), most])
        for member in due:
            try:
                await self.settle(member.decode(), now, tidy=True)
            except RelayError as error:  # Redis away: the next pass settles it
                log.warning("the rating of match %s is left for later: %s", member.decode(), error)
            except Exception:
                log.exception("settling the rating of match %s", member.decode())
        return len(due)

    async def shown_of(self, game: str, digest: str, now: float) -> str:
        """Returns the key's rating in the game as shown (a new key's: '1500?')."""
        client = await self.store.client()
        row = await self.store.guard(client.hmget(f"{self._game(game)}r:{digest}", _FIELDS))
        return shown(_rating(row)[0], now)

    async def _standing(self, game: str, digest: str) -> Standing | None:
        store = self.store
        client = await store.client()
        tagged = self._game(game)
        row = await store.guard(client.hmget(f"{tagged}r:{digest}", _FIELDS))
        if row[0] is None:
            return None
        rating, _, name = _rating(row)
        history = await store.guard(client.lrange(f"{tagged}h:{digest}", 0, 99))
        entries = [Entry(**orjson.loads(item)) for item in history]
        return Standing(rating, 0, name, entries)

    async def player(self, digest: str, game: str | None, now: float) -> list[Any]:
        """Returns GET /v1/player/ratings's list for a key digest."""
        client = await self.store.client()
        games = sorted(
            member.decode()
            for member in await self.store.guard(
                client.smembers(f"{self.prefix}{{p:{digest}}}games")
            )
        )
        if game is not None:
            games = [name for name in games if name == game]
        standings = await asyncio.gather(*(self._standing(name, digest) for name in games))
        return [
            standing_answer(name, standing, now)
            for name, standing in zip(games, standings, strict=True)
            if standing is not None
        ]

    async def board(self, game: str, limit: int, now: float) -> list[Any]:
        """Returns the game's leaderboard rows: the best listed ratings still established."""
        store = self.store
        client = await store.client()
        tagged = self._game(game)
        listed = await store.guard(client.zrevrange(f"{tagged}board", 0, 2 * limit - 1))
        found = []
        for member in listed:
            digest = member.decode()
            row = await store.guard(client.hmget(f"{tagged}r:{digest}", _FIELDS))
            if row[0] is None:  # forgotten, idle past RatingRules.keep: off the board too
                await store.guard(client.zrem(f"{tagged}board", member))
            else:
                rating, _, name = _rating(row)
                found.append((digest, rating, name))
        return board_rows(found, limit, now)


def _written(rating: Rating) -> list[str]:
    """Returns a rating's fields as rate.lua writes them into its hash (a void record's)."""
    return [
        repr(rating.rating), repr(rating.deviation), repr(rating.volatility), str(rating.games),
        repr(rating.at),
    ]  # fmt: skip


def _kept(row: list[bytes | None], rating: Rating) -> list[str]:
    """Returns a rating hash's fields as read (a new key's as written for its first game's
    'before': games '0' and no 'at')."""
    if row[0] is None:
        return [*_written(rating)[:3], "0", ""]
    return [(value or b"").decode() for value in row[:5]]


def _entry_json(entry: Entry) -> dict[str, Any]:
    """Returns a history entry as kept in Redis (every field, full precision)."""
    return {
        "match": entry.match,
        "at": entry.at,
        "score": entry.score,
        "before": entry.before,
        "after": entry.after,
        "deviation": entry.deviation,
        "opponent": entry.opponent,
    }

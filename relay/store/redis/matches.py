"""The Redis store's Matches part: each match's log read, waited on and written to by its
scripts, seeking (relay.store.redis.seeks), and the reaper that runs on every shard.

A waiting poll is woken by the notice of the event it waits for, on one of its match's two
sharded pub/sub channels (relay.store.redis.notify), heard only by the processes that wait for
an event of that parity in that match; it also re-reads the log every `recheck` seconds, so a
lost notification only delays an event."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Collection
from typing import Any, cast

import orjson

from relay.core.errors import RelayError
from relay.core.model import Action, Event, MatchInfo, Status, hash_token
from relay.core.verdicts import dispute_tail, said_tail
from relay.store.base import Judged, Waited
from relay.store.redis import keys as redis_keys
from relay.store.redis.connection import SCRIPTS, Connection, timings
from relay.store.redis.hooks import RedisHooks
from relay.store.redis.key_lists import RedisKeyLists
from relay.store.redis.keys import INFO_FIELDS, GameKeys, match_info
from relay.store.redis.moderation import RedisModeration
from relay.store.redis.ratings import RedisRatings
from relay.store.redis.refusals import Refusal, act_error, claim_error, read_error
from relay.store.redis.replies import Acted, Polled, Reaped
from relay.store.redis.seeks import Seeks
from relay.store.redis.waits import registered, sleep

__all__ = ["RedisMatches"]

log = logging.getLogger("relay.store.redis")

_MAY_END = frozenset(("resign", "confirm", "accept", "claim"))
"""The writes that may end a match (and a move with a verdict): each settles its rating."""


class RedisMatches(Seeks):
    """The Matches part of the Redis store; its seek() is Seeks'."""

    def __init__(
        self,
        link: Connection,
        keys: RedisKeyLists,
        moderation: RedisModeration,
        ratings: RedisRatings,
        hooks: RedisHooks,
    ) -> None:
        super().__init__(link, keys, moderation, hooks)
        self.settings = link.settings
        self.ratings = ratings
        self.rates_at_once = True
        """Whether a write that may end a match settles its rating at once (else only the
        reaper does: what a process that dies in between leaves behind)."""

    # -- reading ---------------------------------------------------------------------------

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        """Returns the reader's seat and the events above after; marks a seat present."""
        seat, events, _ = await self.polled(match, token, after, now)
        return seat, events

    async def polled(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event], int]:
        """poll(), and the table's version (Tables.poll): one script call."""
        polled = await self._poll(match, token, after, now)
        if polled.seat == 0 and polled.status == b"waiting":
            await self.requeue(match, now)
        return polled.seat, polled.events, polled.table

    async def _poll(self, match: str, token: str | None, after: int, now: float) -> Polled:
        """Runs POLL: the reader's seat, the events above after, the status, the table's
        version and when a waiting match was paired."""
        digest = "" if token is None else hash_token(token)
        try:
            return Polled.of(await self.link.on_match("POLL", match, now, digest, after))
        except Refusal as refusal:
            raise read_error(refusal, match, after) from None

    async def wait(
        self, match: str, after: int, timeout: float, version: int | None = None,
        pairable: bool = False,
    ) -> Waited:  # fmt: skip
        """Returns the events above after once there are any; with a table version, ([],
        True) once the table may be above it; else ([], False) after timeout, or at once when a
        second seeker joins the waiting match ('p'; for a pairable wait, as soon as it finds
        the match paired). One subscription serves all three: the match's channel carries its
        events, its table's changes and its pairing."""
        link = self.link
        if timeout <= 0 or link.closing:
            return Waited((await self.polled(match, None, after, 0.0))[1], False)
        notes = await link.notes()
        channel = notes.follow(link.layout.channel(match, after + 1))
        tables, pairings = channel.tables, channel.pairings
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            woken = True
            # Whether the wait's first read found the match unpaired (None: not read yet).
            unpaired: bool | None = None
            while True:
                if version is not None and channel.tables != tables:
                    return Waited([], True)
                if channel.pairings != pairings:  # seat 0 polls again: the pairing's start
                    return Waited([], False)
                # While the subscription is live, every event after the newest heard will be
                # heard: the log needs reading only when something else may have happened.
                heard = channel.heard
                if woken and channel.live and heard is not None:
                    if heard[0] == after + 1:
                        return Waited([heard[1]], False)  # exactly the next event: no read
                    read = heard[0] > after
                else:
                    read = True
                with registered(channel, loop) as waiter:
                    if read:
                        # Read after registering: an event appended before now is in this
                        # read, and the notification of any later one finds the waiter.
                        polled = await self._poll(match, None, after, 0.0)
                        if polled.events or link.closing:
                            return Waited(polled.events, False)
                        if version is not None and polled.table > version:
                            return Waited([], True)
                        if polled.paired is not None and (pairable or unpaired):
                            return Waited([], False)  # paired: its 'p' may not be heard
                        if unpaired is None:
                            unpaired = polled.paired is None
                    left = deadline - loop.time()
                    if left <= 0:
                        return Waited([], False)
                    woken = await sleep(waiter, min(left, link.recheck))
        finally:
            notes.leave(channel)

    async def info(self, match: str) -> MatchInfo:
        """Returns a summary of the match."""
        client = await self.link.client()
        reply = client.hmget(self.link.layout.match(match), list(INFO_FIELDS))
        values: list[bytes | None] = await self.link.guard(cast(Awaitable[list[Any]], reply))
        info = match_info(match, values)
        if info is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        if info.status == Status.EXPIRED:
            raise RelayError("match/expired")
        return info

    async def judged(
        self, match: str, token: str, after: int, games: Collection[str]
    ) -> Judged | None:
        """Returns what a referee judges of a write by the token's seat at event after (see
        Matches.judged), in one script call that checks the token before anything else."""
        try:
            answer = await self.link.on_match(
                "JUDGED", match, 0.0, hash_token(token), after, *games
            )
        except Refusal as refusal:
            raise read_error(refusal, match) from None
        if answer[0] != b"ok":
            return None
        _, game, status, seat, events = answer
        return Judged(game.decode(), Status(status.decode()), int(seat), list(events))

    async def counts(self) -> dict[Status, int]:
        """Returns how many matches are in each status."""
        counts = dict.fromkeys(Status, 0)
        for name, count in await self.link.tallies():
            if not name.startswith("ended:"):
                counts[Status(name)] += count
        return counts

    async def endings(self) -> dict[str, int]:
        """Returns how many matches ended, by reason (see Matches.endings)."""
        endings: dict[str, int] = {}
        for name, count in await self.link.tallies():
            if name.startswith("ended:"):
                reason = name.removeprefix("ended:")
                endings[reason] = endings.get(reason, 0) + count
        return endings

    # -- writing ---------------------------------------------------------------------------

    async def act(self, match: str, token: str, action: Action, now: float) -> int:
        """Applies a seat's action once and returns the number of its event."""
        return (await self.acted(match, token, action, now, False))[0]

    async def acted(
        self, match: str, token: str, action: Action, now: float, table: bool
    ) -> tuple[int, int]:
        """act(), and, if table, the table's version in the same script call (Tables.act)."""
        after = action.after if action.after is not None else -1
        move = action.move
        write = hashlib.sha256(move.encode("utf-8", "surrogatepass")).hexdigest()
        kind = action.kind
        text = orjson.dumps(move) if kind == "move" else b""
        verdict, seat, tail = "", "", b""
        ending = action.ending
        if ending is not None:
            verdict, seat, tail = ending.reason, str(ending.seat), ending.tail()
        elif kind == "confirm":
            tail = dispute_tail(after, move)
        try:
            answer = await self.link.on_match(
                "ACT", match, now, hash_token(token), kind, after,
                f"{int(action.end)}{int(action.agree)}:{write}", int(action.agree),
                int(action.end), text, self.settings.max_events, after + 1, int(table),
                verdict, seat, tail, action.claim or "", self.settings.max_log_bytes,
                said_tail(action.detail), "1" if self.hooks.timed else "",
            )  # fmt: skip
            acted, version = Acted.with_table(answer) if table else (Acted.of(answer), 0)
        except Refusal as refusal:
            if refusal.code == "claim/not_stalled":
                raise claim_error(refusal.detail) from None
            raise act_error(refusal, match, after, self.settings) from None
        if acted.expired is not None:  # a cancel that expired the match: unlist it
            await self.unlist(GameKeys(self.link.prefix, *acted.expired), match)
        self.tell(match, acted.turn, acted.seq)
        ended = self.hooks.ended
        if ended is not None and (kind in _MAY_END or action.ending is not None):
            ended(match)
        if self.rates_at_once and (kind in _MAY_END or action.ending is not None):
            try:
                await self.ratings.settle(match, now)
            except RelayError as error:  # Redis away: the reaper settles it once it is back
                log.warning("the rating of match %s is left to the reaper: %s", match, error)
            except Exception:  # the reaper settles it: the write itself is done
                log.exception("settling the rating of match %s", match)
        return acted.seq, version

    async def left(self, match: str, token: str, started: float, now: float) -> None:
        """Runs LEFT: a held request of the token's seat, begun at started, lost its client."""
        with contextlib.suppress(Refusal):
            await self.link.on_match("LEFT", match, now, hash_token(token), repr(float(started)))

    # -- housekeeping ----------------------------------------------------------------------

    async def reap(self, now: float, batch: int = 200, most: int = 5000) -> int:
        """Ends matches whose seats stopped polling, drops stale seeks, forgets old matches.

        Only matches whose deadline has passed are looked at (a sorted set per shard), each
        change is atomic, and every relay process may run it at once: a match is changed
        only once. Each call looks at every shard."""
        counts = await asyncio.gather(
            *(self._reap_shard(shard, now, batch, most) for shard in range(redis_keys.SHARDS))
        )
        await asyncio.gather(
            *(self.ratings.settle_pending(shard, now) for shard in range(redis_keys.SHARDS))
        )
        self.link.sweep()
        return sum(counts)

    async def _reap_shard(self, shard: int, now: float, batch: int, most: int) -> int:
        """reap() on one shard (the shards' first calls go to Redis in one pipeline)."""
        tagged, deadlines, _ = self.link.layout.shard(shard)
        s = self.settings
        args = [tagged, "", repr(float(now)), timings(s), repr(s.keep), batch]
        changed = 0
        for _ in range(max(1, most // batch)):
            reaped = Reaped.of(await self.link.run(SCRIPTS["REAP"], [deadlines], args))
            changed += reaped.changed
            for id_, game, queue in reaped.expired:
                await self.unlist(GameKeys(self.link.prefix, game, queue), id_)
            for id_, *players in reaped.gone:
                await self.keys.forget(id_, players)
            if reaped.looked < batch:
                break
        return changed

"""The Redis store: matches shared by every relay process on every box, durable with AOF.

Each change to a match is one Lua script on one slot (see `relay/store/redis/lua/` and the key
layout in `relay.store.redis.keys`), so two relay processes never pair one seeker twice, never
accept two moves for one turn and never give two events one number. The calls made in one
event-loop turn go to Redis as one pipeline (`relay.store.redis.batch`). A waiting poll is woken by
the notice of the event it waits for, on one of its match's two sharded pub/sub channels
(`relay.store.redis.notify`), heard only by the processes that wait for an event of that parity
in that match; it also re-reads the log every `recheck` seconds, so a lost notification
only delays an event.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Collection
from typing import Any, cast

import orjson
import redis.asyncio as aioredis

from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.lobby import Lobby, LobbyKind
from relay.core.model import Action, Event, MatchInfo, Status, StoreSettings, Ticket, hash_token
from relay.core.players import PlayerMatch
from relay.core.rated import RatingRange
from relay.core.rematch import Rematch, RematchOp, lapse_at
from relay.core.table import OfferKind, Table
from relay.core.turns import TurnNotice, TurnSink
from relay.core.verdicts import dispute_tail
from relay.store.base import Immediate, Judged, Waited
from relay.store.redis import keys as redis_keys
from relay.store.redis.connection import (
    DEFAULT_PREFIX,
    SCRIPTS,
    SENTINEL_SCHEME,
    Connection,
    registered,
    sentinel_url,
    sleep,
    timings,
)
from relay.store.redis.hooks import RedisHookState
from relay.store.redis.keys import INFO_FIELDS, GameKeys, match_info
from relay.store.redis.lobby import RedisLobbies
from relay.store.redis.moderation import RedisModeration
from relay.store.redis.names import RedisNames
from relay.store.redis.players import RedisPlayers
from relay.store.redis.ratings import RedisRatings
from relay.store.redis.refusals import UNAVAILABLE, Refusal, act_error, read_error
from relay.store.redis.rematch import RedisRematches
from relay.store.redis.replies import Acted, Notice, Polled, Reaped
from relay.store.redis.seeks import Seeks
from relay.store.redis.table import RedisTables, claim_error

log = logging.getLogger("relay.store.redis")


_MAY_END = frozenset(("resign", "confirm", "accept", "claim"))
"""The writes that may end a match (and a move with a verdict): each settles its rating."""

__all__ = [
    "DEFAULT_PREFIX",
    "SENTINEL_SCHEME",
    "UNAVAILABLE",
    "RedisStore",
    "open_url",
    "sentinel_url",
]


class RedisStore:
    """Keeps matches in Redis: any relay process sharing it may answer any request.

    Its way to Redis is `link` (relay.store.redis.connection); seeking is `seeks`; the
    lobby, rematch and player-key parts are kept in modules of their own."""

    immediate: Immediate | None = None
    """Every call waits on Redis: endpoints run as tasks (see Store.immediate)."""
    turns: TurnSink | None = None
    """Told of turns given in correspondence matches (see Store.turns)."""

    def __init__(
        self,
        client: aioredis.Redis | None = None,
        settings: StoreSettings | None = None,
        *,
        listener: aioredis.Redis | None = None,
        prefix: str = DEFAULT_PREFIX,
        recheck: float = 5.0,
        linger: float = 10.0,
        url: str | None = None,
    ) -> None:
        self.settings = settings or StoreSettings()
        self.prefix = prefix
        self.link = Connection(
            self.settings, prefix, recheck=recheck, linger=linger, url=url,
            client=client, listener=listener,
        )  # fmt: skip
        """The store's way to Redis."""
        self.players = RedisPlayers(self.link)
        """The lists of matches per player key."""
        self.names = RedisNames(self.link)
        """Which player key holds each display name's look."""
        self.moderation = RedisModeration(self.link, self.names, self.settings)
        """Bans, reports, blocks, voids and erasures (relay.store.moderation)."""
        self.seeks = Seeks(self.link, self.players, self.tell, self.moderation)
        """Pairs seekers and opens matches."""
        self._rematches = RedisRematches(self.link, self.players, self.tell)
        self._tables = RedisTables(self.link)
        self._lobbies = RedisLobbies(self.link)
        self._hooks: RedisHookState | None = None
        self.ratings = RedisRatings(self.link, self.settings)
        """Each key's ratings, each match rated once (relay.store.redis.ratings)."""
        self.rates_at_once = True
        """Whether a write that may end a match settles its rating at once (else only the
        reaper does: what a process that dies in between leaves behind)."""

    @property
    def notices(self) -> int:
        """Event notices this process heard (see Store.notices)."""
        return self.link.notices

    @property
    def cluster(self) -> bool:
        """Whether the store runs on a Redis Cluster (known after its first call)."""
        return self.link.cluster

    @classmethod
    def from_url(
        cls,
        url: str,
        settings: StoreSettings | None = None,
        *,
        prefix: str = DEFAULT_PREFIX,
        recheck: float = 5.0,
        linger: float = 10.0,
    ) -> RedisStore:
        """Returns a store on the Redis at url: redis://host:port/db, rediss://…, unix:///path,
        or redis+sentinel://host:port[,host:port...]/name for the primary that Sentinels
        watch under that name (the store follows it through failovers).

        On its first call the store asks Redis whether it is a node of a Redis Cluster; if it
        is, the store finds the whole cluster from it."""
        return cls(settings=settings, prefix=prefix, recheck=recheck, linger=linger, url=url)

    def tell(self, match: str, notice: Notice | None, seq: int) -> None:
        """Tells the turn sink of a match's turn notice, if there is one, for event seq."""
        sink = self.turns
        if sink is not None and notice is not None:
            sink(TurnNotice(match, notice.game, notice.seat, seq, notice.contact, notice.due))

    # -- reading ---------------------------------------------------------------------------

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        """Returns the reader's seat and the events above after; marks a seat present."""
        seat, events, _ = await self.poll_table(match, token, after, now)
        return seat, events

    async def poll_table(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event], int]:
        """poll(), and the table's version (one script call)."""
        digest = "" if token is None else hash_token(token)
        try:
            polled = Polled.of(await self.link.on_match("POLL", match, now, digest, after))
        except Refusal as refusal:
            raise read_error(refusal, match, after) from None
        if polled.seat == 0 and polled.status == b"waiting":
            await self.seeks.requeue(match, now)
        return polled.seat, polled.events, polled.table

    async def wait(
        self, match: str, after: int, timeout: float, version: int | None = None
    ) -> Waited:
        """Returns the events above after once there are any; with a table version, ([],
        True) once the table may be above it; else ([], False) after timeout. One subscription
        serves both: the match's channel carries its events and its table's changes ('t')."""
        link = self.link
        if timeout <= 0 or link.closing:
            return Waited((await self.poll_table(match, None, after, 0.0))[1], False)
        notes = await link.notes()
        channel = notes.follow(link.layout.channel(match, after + 1))
        tables = channel.tables
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            woken = True
            while True:
                if version is not None and channel.tables != tables:
                    return Waited([], True)
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
                        _, events, table = await self.poll_table(match, None, after, 0.0)
                        if events or link.closing:
                            return Waited(events, False)
                        if version is not None and table > version:
                            return Waited([], True)
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
        found = match_info(match, values)
        if found is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        if found.status == Status.EXPIRED:
            raise RelayError("match/expired")
        return found

    async def judged(
        self, match: str, token: str, after: int, games: Collection[str]
    ) -> Judged | None:
        """Returns what a referee judges of a write by the token's seat at event after (see
        Store.judged), in one script call that checks the token before anything else."""
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
        """Returns how many matches ended, by reason (see Store.endings)."""
        endings: dict[str, int] = {}
        for name, count in await self.link.tallies():
            if name.startswith("ended:"):
                reason = name.removeprefix("ended:")
                endings[reason] = endings.get(reason, 0) + count
        return endings

    # -- seeking and writing ---------------------------------------------------------------

    async def seek(
        self,
        game: str,
        version: str,
        room: str | None,
        now: float,
        token: str | None = None,
        control: TimeControl | None = None,
        player: str | None = None,
        contact: str | None = None,
        name: str | None = None,
        rating_range: RatingRange | None = None,
    ) -> Ticket:
        """Joins the oldest compatible waiting match, or opens a new one (see Seeks.seek)."""
        return await self.seeks.seek(
            game, version, room, now, token, control, player, contact, name, rating_range
        )

    async def claim_name(self, skeletons: tuple[str, ...], player: str | None, now: float) -> bool:
        """Binds a display name's skeletons to the player key, or checks them (Store)."""
        return await self.names.claim(skeletons, player, now)

    async def player_matches(self, player: str, now: float) -> list[PlayerMatch]:
        """Returns the matches the player key seated that the store still holds."""
        return await self.players.matches(hash_token(player), now)

    async def act(self, match: str, token: str, action: Action, now: float) -> int:
        """Applies a seat's action once and returns the number of its event."""
        return (await self._act(match, token, action, now, False))[0]

    async def act_table(
        self, match: str, token: str, action: Action, now: float
    ) -> tuple[int, int]:
        """act(), and the table's version, in the same script call."""
        return await self._act(match, token, action, now, True)

    async def _act(
        self, match: str, token: str, action: Action, now: float, table: bool
    ) -> tuple[int, int]:
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
            )  # fmt: skip
            acted, version = Acted.with_table(answer) if table else (Acted.of(answer), 0)
        except Refusal as refusal:
            if refusal.code == "claim/not_stalled":
                raise claim_error(refusal.detail) from None
            raise act_error(refusal, match, after, self.settings) from None
        if acted.expired is not None:  # a cancel that expired the match: unlist it
            await self.seeks.unlist(GameKeys(self.prefix, *acted.expired), match)
        self.tell(match, acted.notice, acted.seq)
        if self.rates_at_once and (kind in _MAY_END or action.ending is not None):
            try:
                await self.ratings.settle(match, now)
            except RelayError as error:  # Redis away: the reaper settles it once it is back
                log.warning("the rating of match %s is left to the reaper: %s", match, error)
            except Exception:  # the reaper settles it: the write itself is done
                log.exception("settling the rating of match %s", match)
        return acted.seq, version

    # -- rematches (relay.store.redis.rematch) ---------------------------------------------

    async def rematch(self, match: str, token: str | None, op: RematchOp, now: float) -> Rematch:
        """Reads a match's rematch, or has the token's seat offer or decline one."""
        if op != "read" and token is None:
            raise RelayError("auth/required")
        digest = "" if token is None else hash_token(token)
        return await self._rematches.rematch(match, digest, op, now)

    async def rematch_wait(self, match: str, after: int, timeout: float, now: float) -> Rematch:
        """Returns the rematch once its version is above after, or as it is after timeout."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        found: list[Rematch] = []

        async def ready() -> bool:
            at = now + loop.time() - start
            current = await self.rematch(match, None, "read", at)
            found[:] = [current]
            due = lapse_at(current, self.settings.grace)
            return current.version > after or (due is not None and due < at)

        left = timeout
        while True:
            await self.link.wait_notice(self._rematches.channel(match), ready, left)
            current = found[-1]
            due = lapse_at(current, self.settings.grace)
            left = timeout - (loop.time() - start)
            if current.version > after or due is None or left <= 0:
                return current
            # An offer stands that lapses before the wait is over: wait until then.
            left = min(left, due - (now + loop.time() - start) + 0.05)
            if left <= 0:
                return await self.rematch(match, None, "read", now + loop.time() - start)

    # -- the table (relay.store.redis.table) -----------------------------------------------

    async def table(
        self, match: str, token: str | None, chat_after: int, now: float
    ) -> tuple[int | None, Table]:
        """Returns the reader's seat and the match's table."""
        return await self._tables.read(match, token, chat_after, now)

    async def offer(self, match: str, token: str, kind: OfferKind, after: int, now: float) -> Table:
        """Has the token's seat offer a draw or ask a takeback; returns the table."""
        await self._tables.offer(match, token, "offer", kind, after, now)
        return (await self._tables.read(match, None, 0, now))[1]

    async def decline(self, match: str, token: str, now: float) -> Table:
        """Has the token's seat decline the partner's offer or withdraw its own."""
        await self._tables.offer(match, token, "decline", "", 0, now)
        return (await self._tables.read(match, None, 0, now))[1]

    async def chat(self, match: str, token: str, text: str, now: float) -> int:
        """Adds a chat line from the token's seat; returns its number."""
        return await self._tables.chat(match, token, text, now)

    async def left(self, match: str, token: str, started: float, now: float) -> None:
        """Notes that a held request of the token's seat lost its client."""
        await self._tables.left(match, token, started, now)

    # -- lobby (relay.store.redis.lobby) ---------------------------------------------------

    async def lobby_add(self, game: str, kind: LobbyKind, match: str, now: float) -> None:
        """Lists a match in a game's lobby."""
        await self._lobbies.add(game, kind, match, now)

    async def lobby_promote(self, game: str, match: str, now: float) -> None:
        """Moves a listed open seek to the live list."""
        await self._lobbies.move(game, match, "open", "live", repr(float(now)))

    async def lobby(self, game: str) -> Lobby:
        """Reads a game's lobby, healing entries whose match changed."""
        return await self._lobbies.read(game)

    async def lobby_wait(self, game: str, after: int, timeout: float) -> None:
        """Returns once the game's lobby version is above after, or after timeout."""

        async def ready() -> bool:
            return await self._lobbies.version(game) > after

        await self.link.wait_notice(self._lobbies.channel(game), ready, timeout)

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
                await self.seeks.unlist(GameKeys(self.prefix, game, queue), id_)
            for id_, *players in reaped.gone:
                await self.players.forget(id_, players)
            if reaped.looked < batch:
                break
        return changed

    async def player_ratings(self, player: str, game: str | None, now: float) -> list[Any]:
        """Returns the key's ratings, with their histories (see Store.player_ratings)."""
        return await self.ratings.player(hash_token(player), game, now)

    async def leaderboard(self, game: str, limit: int, now: float) -> list[Any]:
        """Returns the game's leaderboard rows (see Store.leaderboard)."""
        return await self.ratings.board(game, limit, now)

    async def seeker_rating(self, game: str, match: str, now: float) -> str | None:
        """Returns the rating of the key that opened the match (see Store.seeker_rating)."""
        client = await self.link.client()
        digest = await self.link.guard(client.hget(self.link.layout.match(match), "p0"))
        if digest is None:
            return None
        return await self.ratings.shown_of(game, digest.decode(), now)

    async def wake_all(self) -> None:
        """Answers every wait held in this process at once, and holds no new ones."""
        self.link.wake_all()

    def hook_state(self) -> RedisHookState:
        """Returns the webhook's state, in Redis under the store's prefix (see
        Store.hook_state)."""
        if self._hooks is None:
            self._hooks = RedisHookState(self.link.client, self.prefix)
        return self._hooks

    async def close(self) -> None:
        """Stops listening for notifications and closes the connections to Redis."""
        await self.link.close()


def open_url(url: str, settings: StoreSettings) -> RedisStore:
    """Returns a store on the Redis url names (see RedisStore.from_url, relay.store.open)."""
    return RedisStore.from_url(url, settings)

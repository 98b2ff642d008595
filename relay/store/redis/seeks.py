"""Seeking in the Redis store: pairing through a game's queue (a game script picks, a match
script joins, so no script touches two slots) and seeking in a private room."""

from __future__ import annotations

from relay.core import model
from relay.core.clock import TimeControl
from relay.core.model import Ticket, hash_token, new_token
from relay.core.players import patience
from relay.core.rated import RatingRange
from relay.core.turns import TurnNotice
from relay.store.redis import keys as redis_keys
from relay.store.redis.connection import SCRIPTS, Connection
from relay.store.redis.hooks import RedisHooks
from relay.store.redis.key_lists import RedisKeyLists
from relay.store.redis.keys import GameKeys
from relay.store.redis.moderation import RedisModeration
from relay.store.redis.refusals import DOWN, Refusal, seek_error
from relay.store.redis.replies import Joined, Picked, Roomed, TurnGiven

__all__ = ["Seeker", "Seeks"]

Seeker = tuple[str, str, str, str, str]
"""A seeker: its token's digest, its player key's digest, its contact, its display name and
the digests its key blocks, comma-joined ('' for none)."""


_SAME = -1
"""What _join answers for a match whose seat was taken with the seeker's own player key."""

_REQUEUE_AFTER = 5.0
"""Seconds after its opening at which a waiting match's seat polling it makes sure the match
is in its game's queue (see lua/ensure.lua)."""


class Seeks:
    """The seeks of a Redis store: pairs seekers, opens matches, keeps the queues right."""

    def __init__(
        self, link: Connection, keys: RedisKeyLists, moderation: RedisModeration, hooks: RedisHooks
    ) -> None:
        self.link = link
        self.keys = keys
        """The lists of matches per player key."""
        self.moderation = moderation
        self.hooks = hooks

    def tell(self, match: str, given: TurnGiven | None, seq: int) -> None:
        """Tells the turn sink of the turn a write gave, if it gave one, for event seq."""
        sink = self.hooks.turns
        if given is not None and seq == 1 and not given.correspondence:
            return  # the first turn of a timed match: both seats have just sought
        if sink is not None and given is not None:
            seat, contact, game, due, player, correspondence = given
            sink(TurnNotice(match, game, seat, seq, contact, due, player, correspondence))

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
        """Joins the oldest compatible waiting match, or opens a new one; then lists it under
        the player key, in a step of its own (repeated by a repeated seek). With a rating
        range, only within it, both ways (PAIR's and PUSH's pick, in the game's slot)."""
        own = token is not None
        token = token if token is not None else new_token()
        digest = hash_token(token)
        clock = ("", "") if control is None else (control.key, control.json().decode())
        key = "" if player is None else hash_token(player)
        blocks = await self.moderation.blocking(key)
        seeker = (digest, key, contact or "", name or "", blocks)
        if seeker[1]:
            await self.keys.check(seeker[1], digest)
        try:
            if room:
                ticket = await self._room(game, version, room, now, token, seeker, own, clock)
            else:
                ranged = _range_args(rating_range)
                ticket = await self._queue(game, version, now, token, seeker, own, clock, ranged)
        except Refusal as refusal:
            settings = self.link.settings
            raise seek_error(refusal, game, version, room, settings, control) from None
        if seeker[1]:
            await self.keys.add(seeker[1], ticket.match, now)
            await self.moderation.know(seeker[1])
        return ticket

    async def _queue(
        self, game: str, version: str, now: float, token: str, seeker: Seeker,
        own: bool, clock: tuple[str, str], ranged: tuple[str, str, str],
    ) -> Ticket:  # fmt: skip
        """Pairs through the game's queue: a game script picks, a match script joins. Seeks
        of the seeker's own player key are skipped, and put back at the queue's head."""
        link = self.link
        keys = GameKeys(link.prefix, game, f"{version}~{clock[0]}" if clock[0] else version)
        memo, flag = keys.memo(seeker[0]), "1" if own else "0"
        failed, mine = "", list[str]()
        try:
            while True:
                picked = Picked.of(
                    await link.on_game(
                        "PAIR", keys, now, memo, link.settings.max_waiting, flag, failed,
                        mine[-1] if mine else "", seeker[1], *ranged, span=self._span(clock),
                    )
                )  # fmt: skip
                failed = ""
                if picked.kind == "open":
                    return await self._open_queued(
                        keys, game, version, now, token, seeker, own, clock, mine, ranged
                    )
                seat = await self._join(picked.match, now, seeker)
                if seat == _SAME:
                    mine.append(picked.match)
                elif seat is not None:
                    if picked.kind == "join":
                        await self.unlist(keys, picked.match, queued=False)
                    return Ticket(picked.match, seat, token)
                else:
                    failed = picked.match
        finally:
            if mine:
                args = [repr(float(now)), 0, *mine]
                await link.run(SCRIPTS["REQUEUE"], [keys.queue, keys.waiting], args)

    async def _open_queued(
        self, keys: GameKeys, game: str, version: str, now: float, token: str,
        seeker: Seeker, own: bool, clock: tuple[str, str], mine: list[str],
        ranged: tuple[str, str, str],
    ) -> Ticket:  # fmt: skip
        """Opens a match, then queues it, unless another seeker queued one meanwhile."""
        link = self.link
        match = await self.open(game, version, "", now, seeker[0], clock, *seeker[1:])
        memo, flag = keys.memo(seeker[0]), "1" if own else "0"
        while True:
            skipped = mine[-1] if mine else ""
            picked = Picked.of(
                await link.on_game(
                    "PUSH",
                    keys,
                    now,
                    memo,
                    match,
                    flag,
                    skipped,
                    seeker[1],
                    *ranged,
                    span=self._span(clock),
                )
            )
            if picked.kind == "ok":
                return Ticket(match, 0, token)
            seat = await self._join(picked.match, now, seeker)
            if seat == _SAME:
                mine.append(picked.match)
            elif seat is not None:
                await link.on_match("ACT", match, now, seeker[0], "cancel", -1, "", 0, 0, "", 0, 0)
                if picked.kind == "join":
                    await self.unlist(keys, picked.match, queued=False)
                return Ticket(picked.match, seat, token)
            else:
                await self.unlist(keys, picked.match, queued=False)

    def _span(self, clock: tuple[str, str]) -> float:
        """Seconds a repeated seek of this control answers the same ticket."""
        return patience(TimeControl.from_key(clock[0]), self.link.settings.grace)

    async def open(
        self, game: str, version: str, room: str, now: float, digest: str,
        clock: tuple[str, str], player: str = "", contact: str = "", name: str = "",
        blocks: str = "",
    ) -> str:  # fmt: skip
        """Opens a waiting match for a seeker (its token's digest, its player key's digest,
        contact, display name and blocks, '' for none); returns its id."""
        while True:
            match = redis_keys.new_id()
            try:
                await self.link.on_match(
                    "OPEN",
                    match,
                    now,
                    digest,
                    game,
                    version,
                    room,
                    *clock,
                    player,
                    contact,
                    name,
                    blocks,
                )
            except Refusal as refusal:
                if refusal.code == "collision":  # a fresh id already taken: draw another
                    continue
                raise
            return match

    async def _join(self, match: str, now: float, seeker: Seeker) -> int | None:
        """Takes a seat of a waiting match; None when it can no longer be joined, _SAME when
        its seat was taken with the seeker's own player key."""
        first = model.draw_first()
        joined = Joined.of(
            await self.link.on_match("JOIN", match, now, seeker[0], first, *seeker[1:])
        )
        if joined.kind == "same":
            return _SAME
        if joined.kind != "ok":
            return None
        self.tell(match, joined.turn, 1)
        return joined.seat

    async def unlist(self, keys: GameKeys, match: str, *, queued: bool = True) -> None:
        """Removes a match that no longer waits from its game's waiting set (and queue)."""
        link = self.link
        if queued:
            await link.run(SCRIPTS["UNLIST"], [keys.queue, keys.waiting], [match])
        else:
            try:
                client = await link.client()
                await client.zrem(keys.waiting, match)
                await client.hdel(f"{keys.tagged}ranges", match)
            except DOWN as exc:
                raise link.unavailable(exc) from None

    async def _room(
        self, game: str, version: str, room: str, now: float, token: str,
        seeker: Seeker, own: bool, clock: tuple[str, str],
    ) -> Ticket:  # fmt: skip
        """Seeks in a private room: one script on the room's shard, and the waiting limit
        checked on the game's keys before a match is opened."""
        link = self.link
        shard = redis_keys.room_shard(game, room)
        game_keys = GameKeys(link.prefix, game, version)
        match = redis_keys.new_id(shard)
        tagged = link.layout.tagged(match)
        room_key = f"{tagged}r:{game}:{room}"
        digest = seeker[0]
        memo = f"{tagged}t:{digest}"
        may_open = "0"
        while True:
            args = link.match_args(
                tagged, match, now, game, version, room, digest, model.draw_first(),
                "1" if own else "0", may_open, *clock, *seeker[1:],
            )  # fmt: skip
            try:
                answer = Roomed.of(await link.run(SCRIPTS["ROOM"], [room_key, memo], args))
            except Refusal as refusal:
                if may_open == "1":
                    await self.unlist(game_keys, match, queued=False)
                if refusal.code == "collision":
                    match = redis_keys.new_id(shard)
                    continue
                raise
            if answer.dropped:
                await self.unlist(game_keys, answer.dropped, queued=False)
            if answer.kind == "open":
                limit = link.settings.max_waiting
                reserve = [repr(float(now)), limit, match]
                await link.run(SCRIPTS["RESERVE"], [game_keys.waiting], reserve)
                may_open = "1"
                continue
            self.tell(answer.match, answer.turn, 1)
            if answer.seat == 1:
                await self.unlist(game_keys, answer.match, queued=False)
            if may_open == "1" and answer.match != match:
                await self.unlist(game_keys, match, queued=False)
            return Ticket(answer.match, answer.seat, token)

    async def requeue(self, match: str, now: float) -> None:
        """Makes sure a waiting match, opened a while ago, is in its game's queue."""
        link = self.link
        fields = ("room", "status", "since", "game", "version", "tc")
        client = await link.client()
        room, status, since, game, version, control = await link.guard(
            client.hmget(link.layout.match(match), list(fields))
        )
        if room is None and status == b"waiting" and float(since) + _REQUEUE_AFTER < now:
            queue = version.decode() + ("" if control is None else f"~{control.decode()}")
            keys = GameKeys(link.prefix, game.decode(), queue)
            await link.run(
                SCRIPTS["ENSURE"], [keys.queue, keys.waiting], [repr(float(now)), 0, match]
            )


def _range_args(found: RatingRange | None) -> tuple[str, str, str]:
    """Returns a rating range as PAIR and PUSH take it: kind ('' none, 'w' within, 'm' from
    min to max), then its two numbers ('' for none)."""
    if found is None:
        return "", "", ""
    if found.within is not None:
        return "w", str(found.within), ""
    least, most = found.least, found.most
    return "m", "" if least is None else str(least), "" if most is None else str(most)

"""Challenges in the Redis store (relay.store.challenges), each kept with its challenged key.

Keys, under the prefix P, per public id I, all in the slot ``{ch:I}``:

- ``P{ch:I}in``   sorted set: the challenges made to I (id -> when forgotten, ms)
- ``P{ch:I}r``    hash: their terms (id -> JSON, relay.core.challenges.Challenge.terms)
- ``P{ch:I}s``    hash: where each stands (id -> state TAB until TAB challenger TAB match
                  TAB first TAB settled TAB name; times in ms)
- ``P{ch:I}out``  sorted set: the challenges I made (id -> when forgotten, ms)
- ``P{ch:I}o``    hash: of those, id -> when it lapses (ms) while open, 's' once settled
- ``P{ch:I}k``    hash: ``v``, the version of I's lists; ``hw``, ``hn``, the hour counted
                  and the challenges I made in it
- ``P{ch:I}f``, ``P{ch:I}fo``  hash and sorted set: the ids I follows (id -> JSON; id -> when)
- ``P{ch:I}w``    sharded channel: the version, at each change of I's lists

A challenge id begins with its challenged key's public id, so every answer finds the one
slot that holds it: CHALLENGE_ANSWER settles it there once, whatever the race. Making one
counts it in the challenger's slot (CHALLENGE_OUT), adds it in the challenged key's
(CHALLENGE_IN), then announces it in the challenger's (CHALLENGE_MARK), or drops it there
when the challenged key's slot refused. The match an accept makes is opened by
REMATCH_START in its own slot, which does nothing the second time: an accept repeated opens
it again if a relay stopped between the two."""

from __future__ import annotations

import secrets
from typing import Any

import orjson

from relay.core import challenges as rules
from relay.core.challenges import Challenge, ChallengeAction, Followed, listing_order
from relay.core.errors import RelayError
from relay.core.model import hash_token, new_token
from relay.core.moderation import BLOCKS_DAYS
from relay.store.challenges import Listed
from relay.store.redis import keys as redis_keys
from relay.store.redis.connection import Connection
from relay.store.redis.key_lists import RedisKeyLists
from relay.store.redis.moderation import RedisModeration
from relay.store.redis.replies import Tell, turn_given
from relay.store.redis.waits import wait_notice

__all__ = ["RedisChallenges"]

_MS = 1000.0


def _ms(seconds: float) -> int:
    return round(seconds * _MS)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _read(terms: bytes, state: bytes) -> Challenge:
    """Returns a challenge from its terms and its state line."""
    found = Challenge.from_terms(orjson.loads(terms))
    kind, _, _, match, first, settled, name = state.decode().split("\t", 6)
    if kind == "open":
        return found
    return Challenge(
        found.id, found.sender, found.sender_key, found.sender_name, found.receiver,
        found.receiver_key, found.game, found.version, found.control, found.colour,
        found.rated, found.at, found.until, kind,  # type: ignore[arg-type]
        match or None, int(first) if first else None,
        int(settled) / _MS if settled else None, name or None,
    )  # fmt: skip


class RedisChallenges:
    """The Challenges part of the Redis store."""

    def __init__(
        self, store: Connection, keys: RedisKeyLists, moderation: RedisModeration, tell: Tell
    ) -> None:
        self.store = store
        self.keys = keys
        self.moderation = moderation
        self.tell = tell
        self.layout = redis_keys.Layout(store.prefix)

    def _key(self, public: str, name: str) -> str:
        return f"{self.store.prefix}{{ch:{public}}}{name}"

    def _outgoing(self, public: str) -> list[str]:
        return [self._key(public, "out"), self._key(public, "o"), self._key(public, "k")]

    def _incoming(self, public: str) -> list[str]:
        return [self._key(public, "in"), self._key(public, "r"), self._key(public, "s")]

    async def digest_of(self, public: str) -> str | None:
        """Returns the digest known by a public id (Challenges.digest_of)."""
        client = await self.store.client()
        found = await self.store.guard(client.get(f"{self.store.prefix}{{i:{public}}}"))
        return None if found is None else _text(found)

    async def blocked(self, one: str, other: str) -> bool:
        """Returns whether either key blocked the other (Challenges.blocked)."""
        mine = await self.moderation.blocking(one)
        theirs = await self.moderation.blocking(other)
        return other in mine.split(",") or one in theirs.split(",")

    async def make(self, challenge: Challenge, now: float) -> None:
        """Stores an open challenge (Challenges.make)."""
        store = self.store
        sender, receiver = challenge.sender, challenge.receiver
        kept = _ms(rules.KEPT)
        counted = await store.call(
            "CHALLENGE_OUT",
            self._outgoing(sender),
            [challenge.id, _ms(now), _ms(challenge.until), rules.OUT_MOST, rules.PER_HOUR,
             _ms(3600.0), kept],
        )  # fmt: skip
        if _text(counted[0]) == "fast":
            raise RelayError("challenge/too_fast", retry_after=int(_text(counted[1])) / _MS)
        try:
            await store.call(
                "CHALLENGE_IN",
                [*self._incoming(receiver), self._key(receiver, "f"), self._key(receiver, "k")],
                [challenge.id, sender, _ms(now), _ms(challenge.until),
                 orjson.dumps(challenge.terms()), rules.IN_MOST, rules.STRANGERS_MOST,
                 rules.LISTED_MOST, kept, self._key(receiver, "w")],
            )  # fmt: skip
        except RelayError:
            await self._mark(sender, challenge.id, "drop", now)
            raise
        await self._mark(sender, challenge.id, "", now)

    async def _mark(self, public: str, challenge: str, what: str, now: float) -> None:
        await self.store.call(
            "CHALLENGE_MARK",
            self._outgoing(public),
            [challenge, what, _ms(now), _ms(rules.KEPT), self._key(public, "w")],
        )

    async def answer(
        self, challenge: str, actor: str, action: ChallengeAction, now: float,
        name: str | None = None,
    ) -> Challenge:  # fmt: skip
        """Answers a challenge once (Challenges.answer)."""
        receiver = rules.receiver_of(challenge)
        keys = [*self._incoming(receiver), self._key(receiver, "k")]
        # A challenge's terms never change: an accept's, read for its check, serve below.
        terms = await self._check_room(keys, challenge, actor, now) if action == "accept" else None
        answered = await self.store.call(
            "CHALLENGE_ANSWER",
            keys,
            [challenge, actor, action, _ms(now), redis_keys.new_id(), secrets.randbelow(2),
             name or "", _ms(rules.KEPT), self._key(receiver, "w")],
        )  # fmt: skip
        if terms is None:
            client = await self.store.client()
            terms = await self.store.guard(client.hget(keys[1], challenge))
        if terms is None:
            raise RelayError("challenge/unknown")
        settled = _read(terms, answered[1])
        if settled.state == "accepted":
            await self._start(settled, now)
        if _text(answered[0]) == "ok":
            await self._mark(settled.sender, challenge, "s", now)
        return settled

    async def _check_room(
        self, keys: list[str], challenge: str, actor: str, now: float
    ) -> bytes | None:
        """Refuses the accept of an open challenge when either key has as many matches not
        over as a key may (player/too_many): the match it makes counts, as a seek's does.
        Returns the challenge's terms (None: unknown, which the answer then says)."""
        client = await self.store.client()
        read = client.pipeline(transaction=False)
        read.hget(keys[1], challenge)
        read.hget(keys[2], challenge)
        terms, state = await self.store.guard(read.execute())
        if terms is None or state is None:
            return None
        found = _read(terms, state).seen(now)
        if found.state == "open" and actor == found.receiver_key:
            for key in (found.sender_key, found.receiver_key):
                await self.keys.check(key, "")
        return bytes(terms)

    async def _start(self, challenge: Challenge, now: float) -> None:
        """Opens and starts an accepted challenge's match, once (REMATCH_START)."""
        store = self.store
        new = challenge.match
        assert new is not None
        control = challenge.control
        at = self.layout.tagged(new)
        started = await store.call(
            "REMATCH_START",
            [f"{at}m:{new}", f"{at}e:{new}", f"{at}counts", f"{at}deadlines"],
            [repr(float(now)), repr(store.settings.grace), challenge.game, challenge.version,
             hash_token(new_token()), hash_token(new_token()), str(challenge.first),
             self.layout.channel(new, 1), new, "" if control is None else control.key,
             "" if control is None else control.json(), challenge.sender_key,
             challenge.receiver_key, "", "", challenge.sender_name or "",
             challenge.receiver_name or "", "" if challenge.rated else "1"],
        )  # fmt: skip
        if int(started[1]):
            for player in (challenge.sender_key, challenge.receiver_key):
                await self.keys.add(player, new, now)
            self.tell(new, turn_given(started[2:]), 1)

    async def listed(self, public: str, now: float) -> Listed:
        """Returns a key's challenges (Challenges.listed) in two pipelined reads: its own
        slot's lists, then the terms and states of each challenge, from the slot of its
        challenged key (a held poll reads this at each change)."""
        client = await self.store.client()
        guard = self.store.guard
        first = client.pipeline(transaction=False)
        first.hget(self._key(public, "k"), "v")
        first.zrangebyscore(self._key(public, "in"), _ms(now), "+inf")
        first.zrangebyscore(self._key(public, "out"), _ms(now), "+inf")
        version, ins, outs = await guard(first.execute())
        by_receiver: dict[str, list[str]] = {}
        if ins:
            by_receiver[public] = [_text(raw) for raw in ins]
        for raw in outs:
            challenge = _text(raw)
            by_receiver.setdefault(rules.receiver_of(challenge), []).append(challenge)
        groups = list(by_receiver.items())
        found: list[Any] = []
        if groups:
            second = client.pipeline(transaction=False)
            for receiver, wanted in groups:
                _, terms_key, states_key = self._incoming(receiver)
                second.hmget(terms_key, wanted)
                second.hmget(states_key, wanted)
            found = await guard(second.execute())
        incoming: list[Challenge] = []
        outgoing: list[Challenge] = []
        mine = {_text(raw) for raw in outs}
        for n, (_receiver, wanted) in enumerate(groups):
            terms, states = found[2 * n], found[2 * n + 1]
            for challenge, raw, state in zip(wanted, terms, states, strict=True):
                if raw is None or state is None:
                    continue
                read = _read(raw, state).seen(now)
                (outgoing if challenge in mine else incoming).append(read)
        return Listed(int(version or 0), listing_order(incoming), listing_order(outgoing))

    async def wait(self, public: str, after: int, timeout: float) -> None:
        """Returns once the key's version may be above after (Challenges.wait)."""
        client = await self.store.client()

        async def ready() -> bool:
            found = await self.store.guard(client.hget(self._key(public, "k"), "v"))
            return int(found or 0) > after

        await wait_notice(self.store, self._key(public, "w"), ready, timeout)

    async def follow(self, public: str, followed: Followed, most: int) -> list[Followed]:
        """Follows an id (Challenges.follow)."""
        args = [followed.id, orjson.dumps(followed.as_dict()), _ms(followed.at), most,
                BLOCKS_DAYS * 86_400]  # fmt: skip
        if not int(await self.store.call("FOLLOW", self._follows(public), args)):
            raise RelayError("follow/full")
        return await self.follows(public)

    async def unfollow(self, public: str, followed: str) -> list[Followed]:
        """Stops following an id (Challenges.unfollow)."""
        await self.store.call("FOLLOW", self._follows(public), [followed, "", 0, 0, 0])
        return await self.follows(public)

    def _follows(self, public: str) -> list[str]:
        return [self._key(public, "f"), self._key(public, "fo")]

    async def follows(self, public: str) -> list[Followed]:
        """Returns the ids a key follows, newest first (Challenges.follows)."""
        client = await self.store.client()
        guard = self.store.guard
        newest = await guard(client.zrevrange(self._key(public, "fo"), 0, -1))
        order = [_text(raw) for raw in newest]
        if not order:
            return []
        found = await guard(client.hmget(self._key(public, "f"), order))
        return [Followed.from_dict(orjson.loads(raw)) for raw in found if raw is not None]

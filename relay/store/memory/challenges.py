"""Challenges in the memory store: each key's challenges made and received, answered once,
and the ids it follows (relay.store.challenges; the twin of relay.store.redis.challenges)."""

from __future__ import annotations

import secrets

from relay.core.challenges import (
    IN_MOST,
    LISTED_MOST,
    OUT_MOST,
    PER_HOUR,
    STRANGERS_MOST,
    Challenge,
    ChallengeAction,
    Followed,
    listing_order,
    settle,
)
from relay.core.errors import RelayError
from relay.core.model import hash_token, new_match_id, new_token
from relay.core.moderation import BLOCKS_DAYS
from relay.core.standings import DAY
from relay.store.challenges import Listed
from relay.store.memory.match import Match
from relay.store.memory.registry import Registry

__all__ = ["MemoryChallenges"]

HOUR = 3600.0


class MemoryChallenges:
    """The Challenges part of the memory store."""

    SWEEP_EVERY = 256
    """Challenges made between two sweeps of every key's lists."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg
        self._records: dict[str, Challenge] = {}
        """Challenge id -> the challenge, until it is forgotten."""
        self._in: dict[str, list[str]] = {}
        """Public id -> the challenges made to it, oldest first."""
        self._out: dict[str, list[str]] = {}
        """Public id -> the challenges it made, oldest first."""
        self._versions: dict[str, int] = {}
        self._made: dict[str, tuple[float, int]] = {}
        """Public id -> the hour it began counting and the challenges made in it."""
        self._follows: dict[str, dict[str, Followed]] = {}
        self._makes = 0

    async def digest_of(self, public: str) -> str | None:
        """Returns the digest known by a public id (Challenges.digest_of)."""
        return self.reg.moderation.digest_of(public)

    async def blocked(self, one: str, other: str) -> bool:
        """Returns whether either key blocked the other (Challenges.blocked)."""
        return self.reg.moderation.refuses(one, other)

    def _tidy(self, public: str, now: float) -> None:
        """Forgets a key's challenges past their listing, and the oldest settled ones past
        LISTED_MOST."""
        for lists in (self._in, self._out):
            ids = lists.get(public)
            if ids is None:
                continue
            kept = []
            for challenge in ids:
                found = self._records.get(challenge)
                if found is not None and found.forget_at() > now:
                    kept.append(challenge)
                else:
                    self._records.pop(challenge, None)
            while len(kept) > LISTED_MOST:
                settled = [c for c in kept if self._records[c].seen(now).state != "open"]
                kept.remove(settled[0] if settled else kept[0])
            if kept:
                lists[public] = kept
            else:
                del lists[public]

    def _sweep(self, now: float) -> None:
        """Forgets every challenge past its listing, the counts of hours over, the versions
        of keys with nothing listed, and the follows of keys that followed nobody new for
        BLOCKS_DAYS."""
        for public in {*self._in, *self._out}:
            self._tidy(public, now)
        self._made = {k: v for k, v in self._made.items() if now - v[0] < HOUR}
        listed = {*self._in, *self._out}
        self._versions = {k: v for k, v in self._versions.items() if k in listed}
        horizon = now - BLOCKS_DAYS * DAY
        self._follows = {
            k: held for k, held in self._follows.items()
            if held and max(entry.at for entry in held.values()) > horizon
        }  # fmt: skip

    def _open(self, ids: list[str], now: float) -> list[Challenge]:
        found = (self._records.get(challenge) for challenge in ids)
        return [c for c in found if c is not None and c.seen(now).state == "open"]

    def _changed(self, now: float, *publics: str) -> None:
        # One more, and at least now (ms): a version never goes back, even once a sweep forgot
        # a key's (as Redis forgets an idle key's hash).
        for public in publics:
            self._versions[public] = max(self._versions.get(public, 0) + 1, round(now * 1000))
            self.reg.wakes.notify(f"challenges:{public}")

    async def make(self, challenge: Challenge, now: float) -> None:
        """Stores an open challenge (Challenges.make)."""
        self._makes += 1
        if self._makes % self.SWEEP_EVERY == 0:
            self._sweep(now)
        sender, receiver = challenge.sender, challenge.receiver
        self._tidy(sender, now)
        self._tidy(receiver, now)
        began, count = self._made.get(sender, (now, 0))
        if now - began >= HOUR:
            began, count = now, 0
        if count >= PER_HOUR:
            raise RelayError("challenge/too_fast", retry_after=began + HOUR - now)
        if len(self._open(self._out.get(sender, []), now)) >= OUT_MOST:
            raise RelayError("challenge/too_many")
        incoming = self._open(self._in.get(receiver, []), now)
        if any(c.sender == sender for c in incoming):
            raise RelayError("challenge/open")
        follows = self._follows.get(receiver, {})
        strangers = sum(1 for c in incoming if c.sender not in follows)
        if len(incoming) >= IN_MOST or (sender not in follows and strangers >= STRANGERS_MOST):
            raise RelayError("challenge/full")
        self._records[challenge.id] = challenge
        self._in.setdefault(receiver, []).append(challenge.id)
        self._out.setdefault(sender, []).append(challenge.id)
        self._made[sender] = (began, count + 1)
        self._tidy(sender, now)
        self._tidy(receiver, now)
        self._changed(now, sender, receiver)

    async def answer(
        self, challenge: str, actor: str, action: ChallengeAction, now: float,
        name: str | None = None,
    ) -> Challenge:  # fmt: skip
        """Answers a challenge once (Challenges.answer)."""
        found = self._records.get(challenge)
        if found is None or found.forget_at() <= now:
            raise RelayError("challenge/unknown")
        if action == "accept" and actor == found.receiver_key and found.seen(now).state == "open":
            # The match it makes counts toward each key's matches not over, as a seek's does.
            for key in (found.sender_key, found.receiver_key):
                self.reg.keys.check(key, self.reg.status)
        new = settle(found, actor, action, now, new_match_id(), secrets.randbelow(2), name)
        if new.state == found.state:
            return new
        self._records[challenge] = new
        if new.state == "accepted":
            self._start(new, now)
        self._changed(now, new.sender, new.receiver)
        return new

    def _start(self, challenge: Challenge, now: float) -> None:
        """Opens and starts an accepted challenge's match: the challenger in seat 0, each
        seat opened by its player key only."""
        reg = self.reg
        assert challenge.match is not None and challenge.first is not None
        opened = Match(challenge.game, challenge.version, None, now, challenge.control)
        opened.id = challenge.match
        # Nobody holds these tokens: each seat's key is its player key.
        opened.hashes = [hash_token(new_token()), hash_token(new_token())]
        opened.players = [challenge.sender_key, challenge.receiver_key]
        opened.table.names = [challenge.sender_name, challenge.receiver_name]
        opened.casual = not challenge.rated
        reg.matches[opened.id] = opened
        for player in opened.players:
            reg.keys.add(player, opened.id, now)
        opened.start(challenge.first, now)
        reg.tell_start(opened)

    async def listed(self, public: str, now: float) -> Listed:
        """Returns a key's challenges (Challenges.listed)."""
        self._tidy(public, now)

        def of(ids: list[str]) -> list[Challenge]:
            return listing_order([self._records[c].seen(now) for c in ids])

        return Listed(
            self._versions.get(public, 0),
            of(self._in.get(public, [])),
            of(self._out.get(public, [])),
        )

    async def wait(self, public: str, after: int, timeout: float) -> None:
        """Returns once the key's version may be above after (Challenges.wait)."""
        if self._versions.get(public, 0) > after or self.reg.closing:
            return
        await self.reg.wakes.wait(f"challenges:{public}", timeout)

    async def follow(self, public: str, followed: Followed, most: int) -> list[Followed]:
        """Follows an id (Challenges.follow)."""
        held = self._follows.setdefault(public, {})
        if followed.id not in held and len(held) >= most:
            raise RelayError("follow/full")
        held.pop(followed.id, None)
        held[followed.id] = followed
        return await self.follows(public)

    async def unfollow(self, public: str, followed: str) -> list[Followed]:
        """Stops following an id (Challenges.unfollow)."""
        held = self._follows.get(public, {})
        held.pop(followed, None)
        if not held:
            self._follows.pop(public, None)
        return await self.follows(public)

    async def follows(self, public: str) -> list[Followed]:
        """Returns the ids a key follows, newest first (Challenges.follows)."""
        return list(reversed(self._follows.get(public, {}).values()))

"""The store's challenges part: the challenges each player key made and was made, answered
once, and the public ids each key follows, on every relay process sharing the store
(docs/protocol.md#challenges, relay.core.challenges)."""

from __future__ import annotations

from typing import NamedTuple, Protocol

from relay.core.challenges import Challenge, ChallengeAction, Followed

__all__ = ["Challenges", "Listed"]


class Listed(NamedTuple):
    """A key's challenges, as GET /v1/player/challenges answers them."""

    version: int
    """Grows with each change to either list (a lapse changes nothing): one more, and at
    least the change's time in milliseconds, so it never goes back."""
    incoming: list[Challenge]
    """Made to the key: open ones first, oldest first; then settled ones, newest first."""
    outgoing: list[Challenge]
    """Made by the key, in the same order."""


class Challenges(Protocol):
    """A store's challenges and follows, each kept with the public id of its key."""

    async def digest_of(self, public: str) -> str | None:
        """Returns the digest of the player key known by a public id (it sought on this relay,
        and the store still keeps its matches or ratings), or None."""

    async def blocked(self, one: str, other: str) -> bool:
        """Returns whether either key (by digest) blocked the other."""

    async def make(self, challenge: Challenge, now: float) -> None:
        """Stores an open challenge. Raises challenge/too_fast when its challenger made
        relay.core.challenges.PER_HOUR this hour, challenge/too_many when it has OUT_MOST open,
        challenge/open when it has one open to the same key, challenge/full when the
        challenged key has IN_MOST open, or STRANGERS_MOST from keys it does not follow."""

    async def answer(
        self, challenge: str, actor: str, action: ChallengeAction, now: float,
        name: str | None = None,
    ) -> Challenge:  # fmt: skip
        """Has the key of digest `actor` accept, decline or withdraw a challenge, once
        (relay.core.challenges.settle), and returns it; an accept opens and starts its match
        (both keys seated, never rated unless the challenge was) before this returns, and
        another accept answers the same match. Raises challenge/unknown for a challenge the
        store does not hold, challenge/settled as settle does."""

    async def listed(self, public: str, now: float) -> Listed:
        """Returns the challenges made to and by the key of a public id, as they stand at now."""

    async def wait(self, public: str, after: int, timeout: float) -> None:
        """Returns once the key's challenges' version may be above after, or after timeout."""

    async def follow(self, public: str, followed: Followed, most: int) -> list[Followed]:
        """Has the key follow an id (again: its name and time replaced) and returns its
        follows, newest first; raises follow/full when it follows `most` others."""

    async def unfollow(self, public: str, followed: str) -> list[Followed]:
        """Has the key stop following an id, and returns its follows, newest first."""

    async def follows(self, public: str) -> list[Followed]:
        """Returns the ids the key follows, newest first."""

"""The store's moderation part: a host's bans, voided ratings and erased names, and players'
reports and blocks, on every relay process sharing the store (docs/fair-play.md#moderation).

Pairing reads the blocks itself (Matches.seek never pairs two keys one of which blocked the
other); everything else is here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from relay.core.moderation import Ban, Blocked, BlockKind, Erased, Report, Voided

__all__ = ["BANS_FRESH", "Admit", "Moderation"]

Admit = Callable[[], None]
"""Lets a new report be filed, or raises the error that refuses it."""

BANS_FRESH = 1.0
"""Seconds a process may answer `banned` from the bans it read last (a shared store)."""


class Moderation(Protocol):
    """A store's bans, reports, blocks, voids and erasures."""

    async def ban(self, ban: Ban) -> None:
        """Bans ban.target until ban.until (replacing a ban of the same target); raises
        admin/too_many past relay.core.moderation.BANS_KEPT bans in force."""

    async def unban(self, target: str) -> bool:
        """Lifts the ban of a target; returns whether one was in force."""

    async def bans(self, now: float) -> list[Ban]:
        """Returns the bans in force at now, soonest to end first (read afresh)."""

    async def banned(self, ids: tuple[str, ...], address: str | None, now: float) -> Ban | None:
        """Returns the ban in force covering any of the public ids or the address (as a
        process read the bans at most BANS_FRESH ago), else None."""

    async def report(
        self, match: str, token: str, about: str, text: str, now: float, admit: Admit
    ) -> Report:
        """Files the token's seat's report of its partner (what it is about and its own
        words), copying the partner's name and last chat lines; the same seat's report of the
        same match about the same thing again answers the first one. `admit` is called once
        the token is found to be a seat's and the report is a new one, before it is filed: it
        raises to refuse it (the reporter's pace), so a stranger's report counts nothing."""

    async def reports(self, limit: int, now: float) -> list[Report]:
        """Returns the newest reports (at most limit), newest first."""

    async def block(self, player: str, match: str, kind: BlockKind, now: float) -> list[Blocked]:
        """Has the player key block or mute the key of its partner in a match it sat in, and
        returns its blocks; raises player/not_seated, block/no_key or block/full."""

    async def block_key(
        self, player: str, partner: str, name: str | None, kind: BlockKind, now: float
    ) -> list[Blocked]:
        """Has the player key block or mute a key by its digest (one that challenged it, say),
        named `name`, and returns its blocks; raises block/full."""

    async def unblock(self, player: str, public: str) -> list[Blocked]:
        """Lifts the player key's block or mute of a public id, and returns its blocks."""

    async def blocks(self, player: str) -> list[Blocked]:
        """Returns the player key's blocks and mutes, newest first."""

    async def void(self, match: str, game: str | None, now: float) -> Voided:
        """Takes back a rated match's rating from both seats, once: exactly, for a seat whose
        latest rated game in the game it was, else its points (relay.core.moderation.SeatVoid).
        The game may be left None while the store still holds the match."""

    async def erase(self, public: str, now: float) -> Erased:
        """Erases the name and chat lines of a public id's key: from every match the store
        still holds, and from its leaderboard entries; the name's look stays withheld from
        every key for the store's name hold."""

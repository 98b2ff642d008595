"""Moderation in the memory store: bans, reports, blocks, voided ratings and erased names
(relay.store.moderation says what each does)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from relay.core.errors import RelayError
from relay.core.model import StoreSettings, hash_token
from relay.core.moderation import (
    BANS_KEPT,
    BLOCKS_DAYS,
    BLOCKS_KEPT,
    REPORT_CHAT,
    REPORT_DAYS,
    REPORTS_KEPT,
    Ban,
    Blocked,
    BlockKind,
    Erased,
    Report,
    Voided,
    is_banned,
)
from relay.core.standings import DAY, public_id, seat_id
from relay.core.text_policy import skeletons
from relay.store.memory.key_lists import KeyLists
from relay.store.memory.match import EXPIRED, Match
from relay.store.memory.names import MemoryNames
from relay.store.memory.ratings import MemoryRatings
from relay.store.moderation import Admit

__all__ = ["ERASED", "MemoryModeration"]

ERASED = "erased"
"""What holds an erased name's look (no key's digest is this short)."""


class MemoryModeration:
    """The memory store's bans, reports, blocks and the public ids of the keys it saw."""

    def __init__(
        self,
        settings: StoreSettings,
        matches: dict[str, Match],
        players: KeyLists,
        names: MemoryNames,
        ratings: MemoryRatings,
        changed: Callable[[Match], None],
    ) -> None:
        self.settings = settings
        self._matches = matches
        self._players = players
        self._names = names
        self._ratings = ratings
        self._changed = changed
        """Wakes the polls of a match whose table changed."""
        self._bans: dict[str, Ban] = {}
        self._reports: deque[_Filed] = deque(maxlen=REPORTS_KEPT)
        self._filed = 0
        self._blocks: dict[str, dict[str, Blocked]] = {}
        """Key digest -> the digests it blocks or mutes, newest last."""
        self._ids: dict[str, str] = {}
        """Public id -> key digest, of the keys that sought (erase finds a key by its id)."""

    # -- bans ------------------------------------------------------------------------------

    async def ban(self, ban: Ban) -> None:
        """Bans a target until a time (Moderation.ban)."""
        self._bans = {t: kept for t, kept in self._bans.items() if kept.until > ban.at}
        if ban.target not in self._bans and len(self._bans) >= BANS_KEPT:
            raise RelayError("admin/too_many")
        self._bans[ban.target] = ban

    async def unban(self, target: str) -> bool:
        """Lifts a target's ban (Moderation.unban)."""
        return self._bans.pop(target, None) is not None

    async def bans(self, now: float) -> list[Ban]:
        """Returns the bans in force (Moderation.bans)."""
        return sorted((ban for ban in self._bans.values() if ban.until > now), key=_ending)

    async def banned(self, ids: tuple[str, ...], address: str | None, now: float) -> Ban | None:
        """Returns the ban covering an id or the address (Moderation.banned)."""
        if not self._bans:
            return None
        return is_banned(list(self._bans.values()), ids, address, now)

    # -- reports ---------------------------------------------------------------------------

    async def report(
        self, match: str, token: str, about: str, text: str, now: float, admit: Admit
    ) -> Report:
        """Files a seat's report of its partner (Moderation.report)."""
        state = self._get(match)
        seat = state.seat_of(hash_token(token))
        for filed in self._reports:
            if filed.report.match == match and filed.report.about == about and filed.seat == seat:
                return filed.report
        admit()
        partner = 1 - seat
        said = [line.text for line in state.table.chat if line.seat == partner and line.text]
        self._filed += 1
        report = Report(
            self._filed, now, match, state.game, about, text,
            seat_id(state.players[seat]), seat_id(state.players[partner]),
            state.table.names[partner], tuple(said[-REPORT_CHAT:]),
        )  # fmt: skip
        while self._reports and self._reports[0].report.at <= now - REPORT_DAYS * DAY:
            self._reports.popleft()
        self._reports.append(_Filed(report, seat))
        return report

    async def reports(self, limit: int, now: float) -> list[Report]:
        """Returns the newest reports (Moderation.reports)."""
        horizon = now - REPORT_DAYS * DAY
        kept = [filed.report for filed in reversed(self._reports)]
        return [report for report in kept if report.at > horizon][:limit]

    # -- blocks ----------------------------------------------------------------------------

    def refuses(self, one: str, other: str) -> bool:
        """Returns whether either key (by digest; '' for none) blocks the other: they are
        never paired."""
        if not one or not other:
            return False
        mine, theirs = self._blocks.get(one), self._blocks.get(other)
        return (mine is not None and _blocks(mine.get(other))) or (
            theirs is not None and _blocks(theirs.get(one))
        )

    async def block(self, player: str, match: str, kind: BlockKind, now: float) -> list[Blocked]:
        """Blocks or mutes a match's partner's key (Moderation.block)."""
        digest = hash_token(player)
        state = self._get(match)
        if digest not in state.players:
            raise RelayError("player/not_seated")
        partner = state.players[1 - state.players.index(digest)]
        if not partner:
            raise RelayError("block/no_key")
        name = state.table.names[state.players.index(partner)]
        return await self.block_key(player, partner, name, kind, now)

    async def block_key(
        self, player: str, partner: str, name: str | None, kind: BlockKind, now: float
    ) -> list[Blocked]:
        """Blocks or mutes a key by its digest (Moderation.block_key)."""
        held = self._blocks.setdefault(hash_token(player), {})
        if partner not in held and len(held) >= BLOCKS_KEPT:
            raise RelayError("block/full")
        held.pop(partner, None)
        held[partner] = Blocked(public_id(partner), name, kind, now)
        return await self.blocks(player)

    async def unblock(self, player: str, public: str) -> list[Blocked]:
        """Lifts a block or mute (Moderation.unblock)."""
        held = self._blocks.get(hash_token(player), {})
        for blocked, entry in list(held.items()):
            if entry.id == public:
                del held[blocked]
        return await self.blocks(player)

    async def blocks(self, player: str) -> list[Blocked]:
        """Returns a key's blocks and mutes, newest first (Moderation.blocks)."""
        return list(reversed(self._blocks.get(hash_token(player), {}).values()))

    # -- voids and erasures ----------------------------------------------------------------

    async def void(self, match: str, game: str | None, now: float) -> Voided:
        """Takes back a match's rating (Moderation.void)."""
        state = self._matches.get(match)
        if state is not None:
            game = state.game
        rules = self.settings.ratings
        if rules is None:
            return Voided(match, game or "", "not_rated")
        return self._ratings.void(match, game, now, rules)

    def know(self, digest: str) -> None:
        """Notes a seeking key's public id (erase finds its key by it)."""
        if digest:
            self._ids[public_id(digest)] = digest

    def digest_of(self, public: str) -> str | None:
        """Returns the digest of the key noted under a public id, or None."""
        return self._ids.get(public)

    def sweep(self, now: float) -> None:
        """Forgets the blocks of keys that blocked nobody for BLOCKS_DAYS, and the public ids
        of keys the store holds nothing of any more."""
        horizon = now - BLOCKS_DAYS * DAY
        self._blocks = {
            digest: held
            for digest, held in self._blocks.items()
            if held and max(entry.at for entry in held.values()) > horizon
        }
        self._ids = {
            public: digest
            for public, digest in self._ids.items()
            if self._players.listed(digest) or self._ratings.has_standing(digest)
            or digest in self._blocks
        }  # fmt: skip

    async def erase(self, public: str, now: float) -> Erased:
        """Erases a key's name and chat lines (Moderation.erase)."""
        digest = self._ids.get(public)
        if digest is None:
            return Erased(public, 0, 0, 0)
        matches = lines = 0
        looks: set[str] = set()
        for match, _ in self._players.listed(digest):
            state = self._matches.get(match)
            if state is None or digest not in state.players:
                continue
            seat = state.players.index(digest)
            table = state.table
            name = table.names[seat]
            if name is not None:
                looks.update(skeletons(name))
                table.names[seat] = None
            erased = table.erase_chat(seat)
            if name is not None or erased:
                matches += 1
                lines += erased
                table.version += 1
                self._changed(state)
        for look in looks:
            self._names.withhold(look, ERASED, now, self.settings.name_hold)
        return Erased(public, matches, lines, self._ratings.erase_name(digest))

    def _get(self, match: str) -> Match:
        state = self._matches.get(match)
        if state is None or state.status is EXPIRED:
            raise RelayError("match/unknown", f"No match {match!r}.")
        return state


class _Filed(NamedTuple):
    """A report and the seat that filed it."""

    report: Report
    seat: int


def _blocks(entry: Blocked | None) -> bool:
    return entry is not None and entry.kind == "block"


def _ending(ban: Ban) -> float:
    return ban.until

"""Moderation as data: a host's bans (of a player's public id or an address range, for a
time), players' reports and blocks, and what voiding a rating or erasing a name did; pure,
without I/O (docs/fair-play.md#moderation). The stores keep them (relay.store.moderation)."""

from __future__ import annotations

import functools
import ipaddress
from dataclasses import dataclass
from typing import Any, Literal

from relay.core import patterns
from relay.core.errors import RelayError

__all__ = [
    "BANS_KEPT",
    "BAN_MOST_SECONDS",
    "BLOCKS_DAYS",
    "BLOCKS_KEPT",
    "PUBLIC_ID",
    "REPORTS_KEPT",
    "REPORT_ABOUT",
    "REPORT_CHAT",
    "REPORT_DAYS",
    "REPORT_TEXT",
    "Ban",
    "BlockKind",
    "Blocked",
    "Erased",
    "Report",
    "SeatVoid",
    "Voided",
    "banned_error",
    "is_banned",
]

PUBLIC_ID = patterns.PUBLIC_ID
"""A player key's public id (relay.core.standings.public_id), as leaderboards, tables and
reports show it."""

BANS_KEPT = 10_000
"""Bans a store holds at once (admin/too_many past them)."""

BAN_MOST_SECONDS = 10 * 365 * 86_400.0
"""The longest ban: ten years."""

BLOCKS_KEPT = 500
"""Keys one player key may block or mute at once (block/full past them)."""

BLOCKS_DAYS = 365
"""Days a key's blocks and mutes are kept after its last one (a store's state is bounded)."""

REPORTS_KEPT = 1_000
"""Reports a store keeps, the newest; older ones go."""

REPORT_DAYS = 30
"""Days a report is kept at most."""

REPORT_TEXT = 500
"""The most characters of a report's own words."""

REPORT_CHAT = 10
"""The reported seat's last chat lines a report copies, so the host reads what was said after
the match is forgotten."""

REPORT_ABOUT = ("play", "name", "chat")
"""What a report is about: how the partner played (cheating, stalling), its name, its chat."""

BlockKind = Literal["block", "mute"]
"""A block: never paired again, and its chat hidden; a mute: its chat hidden only."""


@dataclass(frozen=True, slots=True)
class Ban:
    """A host's ban of a public id ('id:…') or of an address range ('203.0.113.0/24')."""

    target: str
    until: float
    reason: str
    at: float

    def as_dict(self) -> dict[str, Any]:
        """Returns the ban as the admin API answers it."""
        return {"target": self.target, "until": self.until, "reason": self.reason, "at": self.at}

    @classmethod
    def from_dict(cls, found: dict[str, Any]) -> Ban:
        """Returns a ban as a store keeps it (as_dict)."""
        return cls(
            str(found["target"]), float(found["until"]), str(found["reason"]), float(found["at"])
        )


@functools.lru_cache(maxsize=BANS_KEPT)
def _network(target: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """Returns a ban's address range, parsed once (every seek reads the bans)."""
    return ipaddress.ip_network(target)


def is_banned(bans: list[Ban], ids: tuple[str, ...], address: str | None, now: float) -> Ban | None:
    """Returns the ban that covers any of the public ids or the address at `now` (the one that
    lasts longest), else None."""
    found: Ban | None = None
    parsed = None
    if address:
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            parsed = None
    targets = {f"id:{one}" for one in ids if one}
    for ban in bans:
        if ban.until <= now:
            continue
        covers = ban.target in targets
        if not covers and parsed is not None and not ban.target.startswith("id:"):
            network = _network(ban.target)
            covers = network.version == parsed.version and parsed in network
        if covers and (found is None or ban.until > found.until):
            found = ban
    return found


def banned_error(ban: Ban, now: float, who: str = "") -> RelayError:
    """Returns the error refusing a banned player key's or address's new match; `who` names
    what is banned when it is not the asker's own key or address (a rematch's partner)."""
    if not who:
        who = "This player key" if ban.target.startswith("id:") else "This address"
    return RelayError(
        "player/banned",
        f"{who} is banned from new matches on this relay for "
        f"{max(1, round(ban.until - now))} s more: {ban.reason or 'no reason given'}.",
    )


@dataclass(frozen=True, slots=True)
class Blocked:
    """One key a player blocked or muted: its public id, the name it had then, the kind."""

    id: str
    name: str | None
    kind: BlockKind
    at: float

    def as_dict(self) -> dict[str, Any]:
        """Returns the entry as GET /v1/player/blocks lists it."""
        return {"id": self.id, "name": self.name, "kind": self.kind, "at": self.at}


@dataclass(frozen=True, slots=True)
class Report:
    """A seat's report of its partner in a match."""

    n: int
    """Its number in the store, from 1."""
    at: float
    match: str
    game: str
    about: str
    text: str
    reporter: str | None
    """The reporting seat's public id (None: it sat without a player key)."""
    reported: str | None
    """The partner's public id (None: it sat without a player key)."""
    name: str | None
    """The partner's name in the match."""
    chat: tuple[str, ...] = ()
    """The partner's last REPORT_CHAT chat lines in the match, oldest first."""

    def as_dict(self) -> dict[str, Any]:
        """Returns the report as the admin API lists it."""
        return {
            "n": self.n,
            "at": self.at,
            "match": self.match,
            "game": self.game,
            "about": self.about,
            "text": self.text,
            "reporter": self.reporter,
            "reported": self.reported,
            "name": self.name,
            "chat": list(self.chat),
        }

    @classmethod
    def from_dict(cls, found: dict[str, Any]) -> Report:
        """Returns a report as a store keeps it (as_dict)."""
        return cls(
            int(found["n"]), float(found["at"]), found["match"], found["game"], found["about"],
            found["text"], found["reporter"], found["reported"], found["name"],
            tuple(found.get("chat") or ()),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class SeatVoid:
    """What voiding a match's rating did to one seat's rating."""

    id: str
    before: float
    """The rating the match's rating had changed (the seat's before it)."""
    after: float
    """What the match made of it."""
    now: float
    """The seat's rating once voided."""
    exact: bool
    """True: the match was its latest rated game there, and its whole rating (deviation,
    volatility, games) is as before the match; False: later games were rated since, and only
    the match's points were given back (after - before taken off)."""

    def as_dict(self) -> dict[str, Any]:
        """Returns the seat's part of the void answer."""
        return {
            "id": self.id,
            "before": round(self.before, 1),
            "after": round(self.after, 1),
            "now": round(self.now, 1),
            "exact": self.exact,
        }


@dataclass(frozen=True, slots=True)
class Voided:
    """What voiding a match's rating did: nothing (it was not rated, or voided already), or
    each seat's change."""

    match: str
    game: str
    state: Literal["voided", "already", "not_rated"]
    seats: tuple[SeatVoid, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """Returns the admin API's answer."""
        return {
            "match": self.match,
            "game": self.game,
            "state": self.state,
            "seats": [seat.as_dict() for seat in self.seats],
        }


@dataclass(frozen=True, slots=True)
class Erased:
    """What erasing a key's name and chat did."""

    id: str
    matches: int
    """Matches the store still holds whose seat's name or chat lines were erased."""
    lines: int
    """Chat lines erased (their text is now '')."""
    ratings: int
    """Games whose leaderboard entry lost the name."""

    def as_dict(self) -> dict[str, Any]:
        """Returns the admin API's answer."""
        return {
            "id": self.id,
            "matches": self.matches,
            "lines": self.lines,
            "ratings": self.ratings,
        }

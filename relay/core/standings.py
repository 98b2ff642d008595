"""A player key's standing in a game: its rating, history and public handle, as the stores
keep them and the endpoints answer them (docs/ratings.md); pure, without I/O."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

from relay.core.rated import RatingRules
from relay.core.ratings import Rating, deviation_at, is_provisional, new_rating, rate, shown

__all__ = [
    "BOARD_DEFAULT",
    "BOARD_LIMIT",
    "DAY",
    "HISTORY",
    "OPPONENTS_KEPT",
    "VOID_DAYS",
    "Entry",
    "MatchRating",
    "Standing",
    "board_fit",
    "board_rows",
    "met",
    "pair_of",
    "public_id",
    "rated_pair",
    "rated_seats",
    "seat_id",
    "standing_answer",
]

HISTORY = 100
"""Rated games each standing keeps, newest first."""

BOARD_LIMIT = 100
"""The most players a leaderboard answer lists (?limit=N)."""

BOARD_DEFAULT = 50
"""The players a leaderboard answer lists without ?limit."""

DAY = 86_400.0
"""The window of RatingRules.pair_daily."""

VOID_DAYS = 7
"""Days a rated match's change is kept so that a host may void it (docs/fair-play.md)."""

OPPONENTS_KEPT = 20
"""Distinct opponents a standing remembers (RatingRules.board_opponents may be up to it)."""


def rated_seats(
    ratings: tuple[tuple[float, float], tuple[float, float]] | None,
) -> dict[str, Any]:
    """Returns the match info's 'ratings' field, each seat's before and after ({} for a
    match not rated)."""
    if ratings is None:
        return {}
    return {
        "ratings": [{"before": _tenth(before), "after": _tenth(after)} for before, after in ratings]
    }


def _tenth(value: float) -> float:
    """Returns a rating number as answers carry it: rounded to one decimal."""
    return round(value, 1)


@dataclass(frozen=True, slots=True)
class Entry:
    """One rated game in a standing's history."""

    match: str
    at: float
    score: float
    """The key's own score: 1 won, 0.5 drawn, 0 lost."""
    before: float
    after: float
    deviation: float
    """The deviation after the game."""
    opponent: float
    """The opponent's rating before the game."""

    def as_dict(self) -> dict[str, Any]:
        """Returns the entry as the ratings endpoint answers it."""
        return {
            "match": self.match,
            "at": self.at,
            "score": self.score,
            "before": _tenth(self.before),
            "after": _tenth(self.after),
            "opponent": _tenth(self.opponent),
        }


@dataclass(slots=True)
class Standing:
    """A player key's rating in one game, its version (one more per update), the name it
    last played under, and its latest HISTORY rated games, newest first."""

    rating: Rating = field(default_factory=new_rating)
    version: int = 0
    name: str | None = None
    history: list[Entry] = field(default_factory=list)
    first: float = 0.0
    """When its first rated game ended (0: none yet)."""
    opponents: tuple[str, ...] = ()
    """The key digests of its first OPPONENTS_KEPT distinct opponents."""
    listed: bool = False
    """Whether its latest rated game left it fit for the leaderboard (board_fit)."""


@dataclass(frozen=True, slots=True)
class MatchRating:
    """Both seats' ratings before and after a rated match."""

    before: tuple[float, float]
    after: tuple[float, float]

    def pairs(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Returns each seat's (before, after)."""
        return (self.before[0], self.after[0]), (self.before[1], self.after[1])

    def seats(self) -> list[dict[str, float]]:
        """Returns the match info's 'ratings': each seat's before and after."""
        return [
            {"before": _tenth(self.before[seat]), "after": _tenth(self.after[seat])}
            for seat in (0, 1)
        ]

    def seat(self, seat: int) -> dict[str, float]:
        """Returns one seat's before and after, as Your games lists it."""
        return self.seats()[seat]


def rated_pair(
    match: str, zero: Rating, one: Rating, score: float, now: float
) -> tuple[Rating, Rating, Entry, Entry, MatchRating]:
    """Returns both seats' new ratings after a match seat 0 scored `score` in, each seat's
    history entry and the match's rating: everything a store writes, computed once."""
    new_zero, new_one = rate(zero, one, score, now)
    entries = (
        Entry(match, now, score, zero.rating, new_zero.rating, new_zero.deviation, one.rating),
        Entry(match, now, 1.0 - score, one.rating, new_one.rating, new_one.deviation, zero.rating),
    )
    done = MatchRating((zero.rating, one.rating), (new_zero.rating, new_one.rating))
    return new_zero, new_one, entries[0], entries[1], done


def met(opponents: tuple[str, ...], opponent: str) -> tuple[str, ...]:
    """Returns a key's distinct opponents with one more met (at most OPPONENTS_KEPT kept)."""
    if opponent in opponents or len(opponents) >= OPPONENTS_KEPT:
        return opponents
    return (*opponents, opponent)


def board_fit(
    rating: Rating, first: float, opponents: tuple[str, ...], now: float, rules: RatingRules
) -> bool:
    """Returns whether a key belongs on its game's leaderboard after a rated game at now: an
    established rating, rated games against rules.board_opponents distinct keys, and its
    first rated game rules.board_age ago or more (docs/fair-play.md: one person's fresh keys
    do not put one of them on a leaderboard)."""
    return (
        not is_provisional(rating, now)
        and len(opponents) >= min(rules.board_opponents, OPPONENTS_KEPT)
        and now - first >= rules.board_age
    )


def pair_of(game: str, one: str, other: str) -> tuple[str, str, str]:
    """Returns the key of a pair of key digests in a game, the same either way round."""
    return (game, *sorted((one, other)))  # type: ignore[return-value]


def public_id(digest: str) -> str:
    """Returns a player key's public handle on leaderboards: the first 12 characters of the
    base64url SHA-256 of 'board:' and the key's digest; stable, revealing nothing usable."""
    hashed = hashlib.sha256(b"board:" + digest.encode()).digest()
    return base64.urlsafe_b64encode(hashed).decode()[:12]


def seat_id(digest: str | None) -> str | None:
    """Returns a seat's public id from its player key's digest (None: it sat without one)."""
    return public_id(digest) if digest else None


def standing_answer(game: str, standing: Standing, now: float) -> dict[str, Any]:
    """Returns one game's entry of GET /v1/player/ratings."""
    rating = standing.rating
    return {
        "game": game,
        "rating": _tenth(rating.rating),
        "deviation": _tenth(deviation_at(rating, now)),
        "games": rating.games,
        "provisional": is_provisional(rating, now),
        "shown": shown(rating, now),
        "at": rating.at,
        "history": [entry.as_dict() for entry in standing.history],
    }


def board_rows(
    found: list[tuple[str, Rating, str | None]], limit: int, now: float
) -> list[dict[str, Any]]:
    """Returns a leaderboard's rows from (digest, rating, name) of a game's players: the
    established ratings at `now`, best first, at most `limit`."""
    kept = [row for row in found if not is_provisional(row[1], now)]
    kept.sort(key=lambda row: (-row[1].rating, row[0]))
    return [
        {
            "rank": rank,
            "id": public_id(digest),
            "name": name,
            "rating": _tenth(rating.rating),
            "deviation": _tenth(deviation_at(rating, now)),
            "games": rating.games,
            "shown": shown(rating, now),
        }
        for rank, (digest, rating, name) in enumerate(kept[:limit], 1)
    ]

"""Ratings as the relay serves them: a game's leaderboard, a player key's ratings and their
history, a match's rating changes, and a seek's rating range (docs/ratings.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sdk.errors import ProtocolError

__all__ = [
    "Leaderboard",
    "LeaderboardEntry",
    "MatchRatings",
    "PlayerRating",
    "RatedGame",
    "RatingChange",
    "RatingRange",
    "parse_leaderboard",
    "parse_match_ratings",
    "parse_ratings",
]

NOT_RATINGS = "the relay's answer about {what} is not protocol v1: {body!r}"
BAD_RANGE = (
    "a rating range is within=N (1 to 4000) alone, or min and/or max (0 to 4000, min at most "
    "max), not {given!r}"
)


@dataclass(frozen=True, slots=True)
class RatingRange:
    """The ratings a seek accepts its opponent at: `within` points of the seeker's own, or
    from `min` to `max` (either left out: unbounded on that side)."""

    min: int | None = None
    max: int | None = None
    within: int | None = None

    def __post_init__(self) -> None:
        bounds = [value for value in (self.min, self.max) if value is not None]
        if self.within is not None:
            good = not bounds and 1 <= self.within <= 4000
        else:
            good = bool(bounds) and all(0 <= value <= 4000 for value in bounds)
            good = good and (len(bounds) < 2 or bounds[0] <= bounds[1])
        if not good:
            raise ValueError(BAD_RANGE.format(given=self))

    def to_json(self) -> dict[str, int]:
        """Returns the seek's `rating_range` field."""
        if self.within is not None:
            return {"within": self.within}
        fields = {"min": self.min, "max": self.max}
        return {key: value for key, value in fields.items() if value is not None}


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One seat's rating before and after a rated match."""

    before: float
    after: float

    @property
    def delta(self) -> float:
        """Returns how far the rating moved (negative: down)."""
        return self.after - self.before

    @classmethod
    def from_json(cls, raw: Any) -> RatingChange:
        """Returns the change of a `{"before", "after"}` object."""
        return cls(float(raw["before"]), float(raw["after"]))


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One established rating of a game's leaderboard."""

    rank: int
    id: str
    """A public handle of the player key, stable per key, that reveals nothing usable."""
    name: str | None
    """The display name the key last played under (None: none given, or names are off)."""
    rating: float
    deviation: float
    games: int
    shown: str
    """The rating as players read it: whole points, such as "1873"."""


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A game's established ratings, best first."""

    game: str
    players: tuple[LeaderboardEntry, ...]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One rated match of a rating's history."""

    match: str
    at: float
    """When it was rated (seconds since the epoch)."""
    score: float
    """The key's score: 1 a win, 0.5 a draw, 0 a loss."""
    before: float
    after: float
    opponent: float
    """The opponent's rating before the match."""


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player key's rating in one game, and its latest rated matches, newest first."""

    game: str
    rating: float
    deviation: float
    games: int
    provisional: bool
    """Whether the rating is still unsure (shown with a "?")."""
    shown: str
    """The rating as players read it: "1873", or "1500?" while provisional."""
    at: float
    """When it last changed (seconds since the epoch)."""
    history: tuple[RatedGame, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchRatings:
    """Whether a finished match was rated, and each seat's change when it was."""

    rated: bool | Literal["pending", "voided"]
    """True, False, "pending" while the relay is rating it, or "voided": the host took its
    rating back."""
    changes: tuple[RatingChange, RatingChange] | None = None
    """By seat, once rated."""


def parse_leaderboard(answer: Any) -> Leaderboard:
    """Returns the Leaderboard of GET /v1/games/{game}/leaderboard; raises ProtocolError."""
    try:
        players = tuple(
            LeaderboardEntry(
                int(raw["rank"]),
                str(raw["id"]),
                None if raw.get("name") is None else str(raw["name"]),
                float(raw["rating"]),
                float(raw["deviation"]),
                int(raw["games"]),
                str(raw["shown"]),
            )
            for raw in answer["players"]
        )
        return Leaderboard(str(answer["game"]), players)
    except (KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_RATINGS.format(what="a leaderboard", body=answer)) from None


def parse_ratings(answer: Any) -> list[PlayerRating]:
    """Returns the ratings of GET /v1/player/ratings; raises ProtocolError."""
    try:
        return [_rating(raw) for raw in answer["ratings"]]
    except (KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_RATINGS.format(what="ratings", body=answer)) from None


def parse_match_ratings(answer: Any) -> MatchRatings:
    """Returns the `rated` and `ratings` fields of GET /v1/matches/{id} (a relay without
    ratings answers neither: not rated); raises ProtocolError."""
    try:
        rated = answer.get("rated", False)
        if rated not in (True, False, "pending", "voided"):
            raise ValueError(rated)
        raw = answer.get("ratings")
        if rated is not True or raw is None:
            return MatchRatings(rated)
        first, second = (RatingChange.from_json(item) for item in raw)
        return MatchRatings(True, (first, second))
    except (AttributeError, KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_RATINGS.format(what="a match", body=answer)) from None


def _rating(raw: Any) -> PlayerRating:
    history = tuple(
        RatedGame(
            str(item["match"]),
            float(item["at"]),
            float(item["score"]),
            float(item["before"]),
            float(item["after"]),
            float(item["opponent"]),
        )
        for item in raw.get("history") or ()
    )
    return PlayerRating(
        str(raw["game"]),
        float(raw["rating"]),
        float(raw["deviation"]),
        int(raw["games"]),
        bool(raw["provisional"]),
        str(raw["shown"]),
        float(raw["at"]),
        history,
    )

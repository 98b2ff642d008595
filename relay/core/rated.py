"""Which ended matches are rated, and with what result; and a seek's rating range.

Only results the relay can trust change a rating (docs/ratings.md): a referee's verdict, a
result both seats agreed to (a resignation, an accepted draw, a confirmed game-ending move
whose mover said what it ended in), a stall claimed under the relay's own timer, and, as the
host sets, a timeout or an abandonment. A dispute without a verdict, an unconfirmed ending and
an agreed ending whose result nobody stated are never rated."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from relay.core.reasons import Reason

__all__ = [
    "CLAIMS",
    "DEFAULT_RULES",
    "MOST_RATING",
    "NO_RATINGS",
    "REFEREED",
    "Claim",
    "RatingRange",
    "RatingRules",
    "can_pair",
    "score_of",
]

Claim = Literal["win", "draw", "loss"]
"""What the mover of a game-ending move says the game ended in, for itself."""

CLAIMS: tuple[str, ...] = get_args(Claim)
"""The claims, as the wire writes them."""

REFEREED = frozenset((Reason.OVER, Reason.ILLEGAL, Reason.DISPUTED))
"""The reasons that are rated only with a referee's verdict (a `winner` field)."""

_VERDICT_DECIDES = REFEREED | {Reason.AGREED}
"""The reasons a referee's verdict decides when there is one (it outweighs a mover's claim)."""

_WON_BY_PARTNER = frozenset((Reason.RESIGNED, Reason.STALLED, Reason.TIMEOUT, Reason.ABANDONED))
"""The reasons whose `seat` lost: it resigned, stalled, ran out of time or left."""


@dataclass(frozen=True, slots=True)
class RatingRules:
    """Which games and results the host rates (--referee, --rate-unrefereed, --rate-timeouts,
    --rate-abandoned)."""

    timeouts: bool = True
    """Whether a match lost on time is rated (the clock is the relay's own)."""
    abandoned: bool = True
    """Whether a match a seat abandoned (stopped polling for the grace period) is rated."""
    refereed: frozenset[str] = frozenset()
    """The games whose referee the relay runs (--referee): only their matches are rated."""
    unrefereed: bool = False
    """Whether the matches of games without a referee are rated too (--rate-unrefereed):
    their losers can then escape a loss by disputing it (docs/fair-play.md)."""
    pair_daily: int = 3
    """Rated results one pair of keys may have in one game in any 24 hours (--pair-daily):
    their matches beyond these are played unrated."""
    board_opponents: int = 5
    """Distinct opponents a key must have had rated games against to be on a leaderboard
    (--board-opponents)."""
    board_age: float = 7 * 86_400.0
    """Seconds since a key's first rated game in a game before it may be on that game's
    leaderboard (--board-days)."""
    keep: float = 365 * 86_400.0
    """Seconds a key's rating in a game is kept after its last rated game there
    (--rating-days): then its rating, history and leaderboard place are forgotten, and its
    next game there starts it anew."""

    def rates(self, game: str) -> bool:
        """Returns whether matches of `game` are rated at all."""
        return self.unrefereed or game in self.refereed


DEFAULT_RULES = RatingRules()
"""The host's rules by default: only refereed games rated, their timeouts and abandonments
among them."""


def _seat(value: object, field: str) -> int:
    """Returns a seat number read from an ended event, or raises ValueError."""
    if type(value) is not int or value not in (0, 1):
        raise ValueError(f"An ended event's {field!r} is a seat, 0 or 1, not {value!r}.")
    return value


def _won(seat: int) -> float:
    """Returns seat 0's score when `seat` won."""
    return 1.0 if seat == 0 else 0.0


def score_of(
    ended: Mapping[str, Any], claimed: str | None = None, rules: RatingRules = DEFAULT_RULES
) -> float | None:
    """Returns seat 0's score in a match that ended so (1 won, 0.5 drawn, 0 lost), or None
    when the result is not rated.

    `ended` holds the ended event's fields: `reason`, `seat` and, with a referee's verdict,
    `winner` (0, 1, or None for a draw). `claimed` is what the mover of an agreed game-ending
    move said it ended in for itself (None: it said nothing, and the match is not rated)."""
    reason = ended.get("reason")
    seat = _seat(ended.get("seat"), "seat")
    if "winner" in ended and reason in _VERDICT_DECIDES:
        winner = ended["winner"]
        return 0.5 if winner is None else _won(_seat(winner, "winner"))
    if reason in _WON_BY_PARTNER:
        if (reason == Reason.TIMEOUT and not rules.timeouts) or (
            reason == Reason.ABANDONED and not rules.abandoned
        ):
            return None
        return _won(1 - seat)
    if reason == Reason.DRAWN:
        return 0.5
    if reason == Reason.AGREED and claimed is not None:
        if claimed not in CLAIMS:
            raise ValueError(f"A claim is one of {CLAIMS}, not {claimed!r}.")
        mover = 1 - seat  # `seat` confirmed the partner's game-ending move
        return 0.5 if claimed == "draw" else _won(mover if claimed == "win" else seat)
    # Disputed or over without a verdict, unconfirmed, agreed with no stated result, and any
    # reason this module does not know: not rated.
    return None


MOST_RATING = 4000
"""The highest rating a range may name (ratings are kept within 400 to 4000)."""

NO_RATINGS = "This relay keeps no ratings (--no-ratings): a seek takes no 'rating_range'."


@dataclass(frozen=True, slots=True)
class RatingRange:
    """The ratings a seeker will be paired with: from `least` to `most` (either open), or
    within `within` points of its own rating."""

    least: int | None = None
    most: int | None = None
    within: int | None = None

    def bounds(self, own: float) -> tuple[float, float]:
        """Returns the lowest and highest rating admitted by a seeker rated `own`."""
        if self.within is not None:
            return math.floor(own) - self.within, math.floor(own) + self.within
        least = -math.inf if self.least is None else self.least
        return least, math.inf if self.most is None else self.most

    def admits(self, rating: float | None, own: float) -> bool:
        """Returns whether a partner rated `rating` (None: no player key, not rated) falls
        within the range of a seeker rated `own`; ratings compare in whole points, as shown."""
        if rating is None:
            return False
        least, most = self.bounds(own)
        return least <= math.floor(rating) <= most

    def as_dict(self) -> dict[str, int]:
        """Returns the range as a seek writes it."""
        if self.within is not None:
            return {"within": self.within}
        found = {"min": self.least, "max": self.most}
        return {key: value for key, value in found.items() if value is not None}


def can_pair(
    seeker: float | None,
    seeker_range: RatingRange | None,
    waiting: float | None,
    waiting_range: RatingRange | None,
) -> bool:
    """Returns whether a seeker and a waiting seek may be paired: each one's rating (None: no
    player key) within the other's range, if it has one."""

    def admitted(rating: float | None, by: float | None, within: RatingRange | None) -> bool:
        return within is None or (by is not None and within.admits(rating, by))

    return admitted(waiting, seeker, seeker_range) and admitted(seeker, waiting, waiting_range)

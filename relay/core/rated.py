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

from relay.core.errors import RelayError
from relay.core.reasons import Reason

__all__ = [
    "BAD_CLAIM",
    "BAD_RANGE",
    "DEFAULT_RULES",
    "MOST_RATING",
    "NO_RATINGS",
    "RANGE_IN_ROOM",
    "RANGE_WITHOUT_PLAYER",
    "REFEREED",
    "Claim",
    "RatingRange",
    "RatingRules",
    "can_pair",
    "claim_field",
    "range_field",
    "score_of",
]

Claim = Literal["win", "draw", "loss"]
"""What the mover of a game-ending move says the game ended in, for itself."""

_CLAIMS: tuple[str, ...] = get_args(Claim)

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
        if claimed not in _CLAIMS:
            raise ValueError(f"A claim is one of {_CLAIMS}, not {claimed!r}.")
        mover = 1 - seat  # `seat` confirmed the partner's game-ending move
        return 0.5 if claimed == "draw" else _won(mover if claimed == "win" else seat)
    # Disputed or over without a verdict, unconfirmed, agreed with no stated result, and any
    # reason this module does not know: not rated.
    return None


BAD_CLAIM = (
    "The field 'claim' says what a game-ending move ended the game in for its mover: "
    "'win', 'draw' or 'loss', with 'end': true."
)


def claim_field(value: object, end: bool) -> str:
    """Returns a move's 'claim' (given, not None), or raises request/invalid: one of the
    claims, on a move with `end` true only."""
    if not end or not isinstance(value, str) or value not in _CLAIMS:
        raise RelayError(
            "request/invalid",
            f"{BAD_CLAIM} Not {value!r:.80}" + ("." if end else " on a move without 'end': true."),
        )
    return value


MOST_RATING = 4000
"""The highest rating a range may name (ratings are kept within 400 to 4000)."""

BAD_RANGE = (
    "The field 'rating_range' must be an object with 'min' and/or 'max' (whole numbers "
    f"from 0 to {MOST_RATING}, min at most max), or with 'within' alone (a whole number "
    f"from 1 to {MOST_RATING}: your own rating plus or minus it)."
)

RANGE_WITHOUT_PLAYER = (
    "A seek with 'rating_range' needs 'player': a rating belongs to a player key."
)

NO_RATINGS = "This relay keeps no ratings (--no-ratings): a seek takes no 'rating_range'."

RANGE_IN_ROOM = "A seek into a room takes no 'rating_range': the room already names the partner."


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


def _whole(value: object, least: int) -> bool:
    """Returns whether a range's bound is a whole number from `least` to MOST_RATING (JSON
    has one number type: 1400.0 is the whole number 1400)."""
    if type(value) is float and value.is_integer():
        value = int(value)
    return type(value) is int and least <= value <= MOST_RATING


def _int(value: Any) -> Any:
    """Returns a bound checked by _whole as an int (None stays None)."""
    return None if value is None else int(value)


def range_field(body: Mapping[str, Any]) -> RatingRange | None:
    """Returns a seek's 'rating_range' field (None without one), or raises request/invalid:
    `{"min": 1400, "max": 1700}` (either may be left out) or `{"within": 200}`."""
    value = body.get("rating_range")
    if value is None:
        return None
    bad = RelayError("request/invalid", f"{BAD_RANGE} Not {value!r:.80}.")
    if not isinstance(value, dict) or not value or set(value) - {"min", "max", "within"}:
        raise bad
    if body.get("player") is None:
        raise RelayError("request/invalid", RANGE_WITHOUT_PLAYER)
    if body.get("room") is not None:
        raise RelayError("request/invalid", RANGE_IN_ROOM)
    if "within" in value:
        if len(value) > 1 or not _whole(value["within"], 1):
            raise bad
        return RatingRange(within=int(value["within"]))
    least, most = value.get("min"), value.get("max")
    if (
        (least is None and most is None)
        or not (least is None or _whole(least, 0))
        or not (most is None or _whole(most, 0))
        or (least or 0) > (MOST_RATING if most is None else most)
    ):
        raise bad
    return RatingRange(_int(least), _int(most))


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

"""Ratings: Glicko-2 per game and player key, updated after each rated game as lichess does
(docs/ratings.md says why and with which figures).

Glickman's Glicko-2 ("Example of the Glicko-2 system", 2013) updates ratings once per rating
period, over all of that period's games. Here, as on lichess, each game is a period of its own
and is rated as soon as it ends, and a rating deviation grows with the time a player has not
played: `at` keeps when its last rated game ended, and the periods since then (a fraction of
one, or many) count as the paper's periods of inactivity (step 6). A game one period after the
last is rated exactly as the paper rates a period of one game.

Which ended matches are rated, with what score, and a seek's rating range are
`relay.core.rated`'s."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

__all__ = [
    "DAY",
    "GLICKO",
    "LICHESS",
    "PROVISIONAL",
    "SCALE",
    "Rating",
    "RatingSystem",
    "deviation_at",
    "expected_score",
    "is_provisional",
    "new_rating",
    "rate",
    "rate_period",
    "shown",
]

SCALE = 173.7178
"""Rating points per unit of Glicko-2's internal scale (400 / ln 10)."""

DAY = 86_400.0
"""Seconds in a day."""

PROVISIONAL = 110.0
"""A rating whose deviation is at least this is provisional: shown with a '?', left off the
leaderboard (lichess's threshold)."""

_CONVERGED = 1e-6
"""When the volatility's search stops (the paper's epsilon)."""

_MOST_STEPS = 1000
"""A bound on the volatility's search, which converges in a few dozen steps within the
system's clamps; past it the update is refused rather than looping."""


@dataclass(frozen=True, slots=True)
class RatingSystem:
    """The constants of a Glicko-2 rating system, and the bounds every rating is kept in."""

    tau: float = 0.75
    """How much a volatility may change in a game (the paper's tau, 0.3 to 1.2)."""
    periods_per_day: float = 0.21436
    """Rating periods in a day: how fast an idle player's deviation grows back."""
    rating: float = 1500.0
    """A new player's rating."""
    deviation: float = 500.0
    """A new player's deviation, and the most any deviation grows to."""
    volatility: float = 0.09
    """A new player's volatility."""
    least_deviation: float = 45.0
    """The least a deviation shrinks to, so that a rating never freezes."""
    least_rating: float = 400.0
    """The lowest rating."""
    most_rating: float = 4000.0
    """The highest rating."""
    least_volatility: float = 0.01
    """The lowest volatility."""
    most_volatility: float = 0.1
    """The highest volatility."""
    most_change: float = 700.0
    """The most a rating moves in one game."""


LICHESS = RatingSystem()
"""The relay's rating system: lichess's constants (tau 0.75, a new player 1500/500/0.09,
deviations kept within 45 to 500, ratings within 400 to 4000, 0.21436 periods a day)."""

GLICKO = RatingSystem(
    tau=0.5,
    periods_per_day=1.0,
    deviation=350.0,
    volatility=0.06,
    least_deviation=0.0,
    least_rating=-math.inf,
    most_rating=math.inf,
    least_volatility=0.0,
    most_volatility=math.inf,
    most_change=math.inf,
)
"""The paper's own constants and no bounds beyond its own (a period is one day, so that its
worked example reads in days): for checking against the paper."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one game: its value, deviation and volatility, how many rated
    games made it and when the last one ended."""

    rating: float
    deviation: float
    """The rating's standard deviation when its last game ended (rating points)."""
    volatility: float
    """How erratic the player's results have been (Glicko-2's sigma)."""
    games: int = 0
    at: float | None = None
    """When the last rated game ended, in seconds since the epoch; None before any."""


def new_rating(system: RatingSystem = LICHESS) -> Rating:
    """Returns the rating of a player who has played no rated game."""
    return Rating(system.rating, system.deviation, system.volatility)


def _periods(rating: Rating, now: float, system: RatingSystem) -> float:
    """Returns the rating periods since the rating's last game (none for a clock that reads
    earlier than it: another process's clock may lag); many for a new rating."""
    if rating.at is None:
        return math.inf
    return max(0.0, (now - rating.at) / DAY * system.periods_per_day)


def _kept(rating: Rating, system: RatingSystem) -> Rating:
    """Returns the rating within the system's bounds, or raises ValueError for one that is
    not a number (a store's record damaged)."""
    if not (
        math.isfinite(rating.rating)
        and math.isfinite(rating.deviation)
        and math.isfinite(rating.volatility)
    ):
        raise ValueError(f"A rating's numbers must be finite: {rating!r}.")
    return Rating(
        min(max(rating.rating, system.least_rating), system.most_rating),
        min(max(rating.deviation, system.least_deviation), system.deviation),
        min(max(rating.volatility, system.least_volatility), system.most_volatility),
        rating.games,
        rating.at,
    )


def _grown(phi: float, sigma: float, periods: float, system: RatingSystem) -> float:
    """Returns an internal deviation grown over idle periods (step 6), at most the system's
    largest."""
    most = system.deviation / SCALE
    if periods == math.inf:
        return most
    return min(math.sqrt(phi * phi + periods * sigma * sigma), most)


def deviation_at(rating: Rating, now: float, system: RatingSystem = LICHESS) -> float:
    """Returns the rating's deviation at `now`: grown with the time since its last game, at
    most a new player's."""
    kept = _kept(rating, system)
    phi = _grown(kept.deviation / SCALE, kept.volatility, _periods(kept, now, system), system)
    return max(phi * SCALE, system.least_deviation)


def is_provisional(rating: Rating, now: float, system: RatingSystem = LICHESS) -> bool:
    """Returns whether the rating is provisional at `now`: its deviation is PROVISIONAL or more
    (a new player, or one long idle)."""
    return deviation_at(rating, now, system) >= PROVISIONAL


def shown(rating: Rating, now: float, system: RatingSystem = LICHESS) -> str:
    """Returns the rating as players read it: whole points, with '?' while provisional
    ("1500?", "1873")."""
    mark = "?" if is_provisional(rating, now, system) else ""
    return f"{math.floor(rating.rating)}{mark}"


def _g(phi: float) -> float:
    """Returns how much an opponent's deviation weakens what a result says (the paper's g)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    """Returns the expected score against an opponent (the paper's E)."""
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Returns the new volatility: the root of the paper's f by the Illinois method (step 5)."""
    a = math.log(sigma * sigma)
    phi2, tau2, delta2 = phi * phi, tau * tau, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    low = a
    if delta2 > phi2 + v:
        high = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0.0:
            k += 1
            if k > _MOST_STEPS:
                raise ArithmeticError("The volatility's search found no bracket.")
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(_MOST_STEPS):
        if abs(high - low) <= _CONVERGED:
            return math.exp(low / 2.0)
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0.0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    raise ArithmeticError("The volatility's search did not converge.")


def _update(
    player: Rating,
    games: Sequence[tuple[Rating, float]],
    periods: float,
    now: float,
    system: RatingSystem,
) -> Rating:
    """Returns the player's rating after games against these opponents (each with the
    player's score), `periods` after its last game: the paper's steps 2 to 8, with the idle
    time before the last period grown into the deviation first."""
    mu = (player.rating - system.rating) / SCALE
    # Idle time beyond one period grows the deviation before the games; the last period (or
    # its fraction) is step 6's, grown with the new volatility.
    phi = _grown(player.deviation / SCALE, player.volatility, max(periods - 1.0, 0.0), system)
    sigma = player.volatility
    weighed = []
    for opponent, score in games:
        phi_j = _grown(
            opponent.deviation / SCALE,
            opponent.volatility,
            max(_periods(opponent, now, system) - 1.0, 0.0),
            system,
        )
        g_j = _g(phi_j)
        weighed.append((g_j, _expected(mu, (opponent.rating - system.rating) / SCALE, g_j), score))
    v = 1.0 / sum(g_j * g_j * e_j * (1.0 - e_j) for g_j, e_j, _ in weighed)
    gained = sum(g_j * (score - e_j) for g_j, e_j, score in weighed)
    sigma_new = _volatility(sigma, phi, v, v * gained, system.tau)
    phi_star = math.sqrt(phi * phi + min(periods, 1.0) * sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    change = min(max(phi_new * phi_new * gained * SCALE, -system.most_change), system.most_change)
    return _kept(
        Rating(player.rating + change, phi_new * SCALE, sigma_new, player.games + len(games), now),
        system,
    )


def rate_period(
    player: Rating,
    games: Sequence[tuple[Rating, float]],
    now: float,
    system: RatingSystem = LICHESS,
) -> Rating:
    """Returns the player's rating after a rating period of games ending at `now`, each game
    an opponent's rating at the period's start and the player's score (1 won, 0.5 drawn, 0
    lost); without games, only the deviation grows. With GLICKO and the player's last period
    ending one period before `now`, this is the paper's algorithm exactly."""
    for _, score in games:
        _check_score(score)
    kept = _kept(player, system)
    periods = _periods(kept, now, system)
    if not games:
        phi = _grown(kept.deviation / SCALE, kept.volatility, periods, system)
        return _kept(replace(kept, deviation=phi * SCALE, at=now), system)
    return _update(
        kept, [(_kept(them, system), score) for them, score in games], periods, now, system
    )


def rate(
    a: Rating, b: Rating, score_a: float, now: float, system: RatingSystem = LICHESS
) -> tuple[Rating, Rating]:
    """Returns both players' ratings after one game between them that ended at `now`, in
    which `a` scored `score_a` (1 won, 0.5 drawn, 0 lost): each from both ratings before it."""
    _check_score(score_a)
    a, b = _kept(a, system), _kept(b, system)
    return (
        _update(a, [(b, score_a)], _periods(a, now, system), now, system),
        _update(b, [(a, 1.0 - score_a)], _periods(b, now, system), now, system),
    )


def expected_score(a: Rating, b: Rating, now: float, system: RatingSystem = LICHESS) -> float:
    """Returns a's expected score against b at `now` (0 to 1), both deviations counted."""
    phi = math.hypot(deviation_at(a, now, system), deviation_at(b, now, system)) / SCALE
    return _expected(a.rating / SCALE, b.rating / SCALE, _g(phi))


def _check_score(score: float) -> None:
    """Refuses a score that is not a number from 0 to 1."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"A score is a number from 0 (lost) to 1 (won), not {score!r}.")

"""Rating libraries beside relay.core.ratings: Glickman's worked example, agreement with its
formulas, µs per game, and prediction on a synthetic stream rated one game at a time.

`python -m bench.ratings [--candidates DIR] [--quick]` prints the tables of docs/ratings.md.
The candidates are not dependencies of the project, and two of them install the same import
name (`glicko2`), so each is installed in a folder of its own under DIR first:

    for dist in glicko2==2.1.0 glicko2-py==0.1.0 pyglicko2==0.0.1a2 openskill==6.2.0 \\
        trueskill==0.4.5; do
        pip install --no-deps --target "DIR/${dist%%==*}" "$dist"
    done

Without DIR (or a candidate missing from it) the rows of relay.core.ratings and Elo stand
alone."""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from relay.core import ratings
from relay.core.ratings import DAY, GLICKO, LICHESS, Rating, RatingSystem

__all__ = ["PAPER_PER_GAME", "main"]

PAPER_PER_GAME = RatingSystem(tau=0.5, volatility=0.06, deviation=350.0)
"""The paper's constants, rated one game at a time with lichess's bounds and periods."""

GLICKO_SCALE = 173.7178

EXAMPLE = [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]
"""The worked example's opponents (rating, deviation) and the player's scores; the player is
1500, 200, 0.06 and tau is 0.5."""

Triple = tuple[float, float, float]
"""A rating, its deviation and its volatility."""


@contextmanager
def loaded(folder: Path | None, dist: str, module: str) -> Iterator[ModuleType | None]:
    """Yields `module` imported from the folder `dist` was installed in (None when it is not
    there), and forgets it after, so that another dist may install the same name."""
    top = module.split(".")[0]
    where = None if folder is None else folder / dist
    if where is None or not where.is_dir():
        yield None
        return
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(module)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name == top or name.startswith(top + ".")]:
            del sys.modules[name]


def paper_period(games: list[tuple[float, float, float]], player: Triple) -> Triple:
    """Returns relay.core.ratings' result of one of the paper's periods (tau 0.5)."""
    now = 100 * DAY
    rating = Rating(*player, at=now - DAY)
    opponents = [(Rating(r, rd, 0.06, at=now - DAY), s) for r, rd, s in games]
    after = ratings.rate_period(rating, opponents, now, GLICKO)
    return after.rating, after.deviation, after.volatility


def glicko2_period(m: Any, games: list[tuple[float, float, float]], player: Triple) -> Triple:
    """Returns glicko2 2.1.0's result of one period (its tau is 0.5)."""
    p = m.Player(*player)
    p.update_player([r for r, _, _ in games], [rd for _, rd, _ in games], [s for *_, s in games])
    return float(p.rating), float(p.rd), float(p.vol)


def glicko2_py_period(m: Any, games: list[tuple[float, float, float]], player: Triple) -> Triple:
    """Returns glicko2-py 0.1.0's result of one period, from its pure update function."""
    r, rd, vol = player
    internal = [((x - 1500) / GLICKO_SCALE, y / GLICKO_SCALE, s) for x, y, s in games]
    u = m.update_rating((r - 1500) / GLICKO_SCALE, rd / GLICKO_SCALE, vol, internal, tau=0.5)
    return float(u.mu * GLICKO_SCALE + 1500), float(u.phi * GLICKO_SCALE), float(u.sigma)


def pyglicko2_period(m: Any, games: list[tuple[float, float, float]], player: Triple) -> Triple:
    """Returns pyglicko2 0.0.1a2's result of one period."""
    outcome = {1.0: m.Outcome.WIN, 0.5: m.Outcome.DRAW, 0.0: m.Outcome.LOSS}
    with m.system(0.5):
        p = m.Player(*player)
        p.update([m.Player(r, rd, 0.06) for r, rd, _ in games], [outcome[s] for *_, s in games])
    return float(p.r), float(p.RD), float(p.σ)


PERIODS: list[tuple[str, str, str, Callable[[Any, list[Triple], Triple], Triple]]] = [
    ("glicko2 2.1.0", "glicko2", "glicko2.glicko2", glicko2_period),
    ("glicko2-py 0.1.0", "glicko2-py", "glicko2.math.algorithm", glicko2_py_period),
    ("pyglicko2 0.0.1a2", "pyglicko2", "pyglicko2", pyglicko2_period),
]
"""The Glicko-2 candidates: a name, its dist's folder, its module, one period by it."""


def worked_example(folder: Path | None) -> None:
    """Prints each Glicko-2 implementation's result of the worked example."""
    print("worked example (the paper: 1464.06, 151.52, 0.05999)")
    rows = [("relay.core.ratings", paper_period(EXAMPLE, (1500.0, 200.0, 0.06)))]
    for name, dist, module, period in PERIODS:
        with loaded(folder, dist, module) as m:
            if m is not None:
                rows.append((name, period(m, EXAMPLE, (1500.0, 200.0, 0.06))))
    for name, (r, rd, vol) in rows:
        print(f"  {name:22s} {r:11.4f} {rd:10.4f} {vol:.7f}")


def agreement(folder: Path | None, periods: int) -> None:
    """Prints the largest differences of each candidate from relay.core.ratings over random
    one-game periods."""
    rng = random.Random(2)
    cases = [
        (
            [(rng.uniform(800, 2500), rng.uniform(40, 350), rng.choice([0.0, 0.5, 1.0]))],
            (rng.uniform(800, 2500), rng.uniform(40, 350), rng.uniform(0.03, 0.09)),
        )
        for _ in range(periods)
    ]
    reference = [paper_period(games, player) for games, player in cases]
    print(f"largest difference from relay.core.ratings, {periods} one-game periods")
    for name, dist, module, period in PERIODS:
        with loaded(folder, dist, module) as m:
            if m is None:
                continue
            worst = [0.0, 0.0, 0.0]
            for (games, player), expected in zip(cases, reference, strict=True):
                for k, (got, want) in enumerate(
                    zip(period(m, games, player), expected, strict=True)
                ):
                    worst[k] = max(worst[k], abs(got - want))
            print(
                f"  {name:22s} rating {worst[0]:.1e}  RD {worst[1]:.1e}  volatility {worst[2]:.1e}"
            )


@dataclass
class Rater:
    """A rating system as the stream uses it: a new player, a prediction and an update."""

    name: str
    new: Callable[[], Any]
    predict: Callable[[Any, Any, float], float]
    """Returns the first player's expected score against the second at a time."""
    update: Callable[[Any, Any, float, float], tuple[Any, Any]]
    """Returns both players after a game with the first's score, at a time."""


def relay_rater(name: str, system: RatingSystem) -> Rater:
    """Returns relay.core.ratings with a rating system."""
    return Rater(
        name,
        lambda: ratings.new_rating(system),
        lambda a, b, now: ratings.expected_score(a, b, now, system),
        lambda a, b, score, now: ratings.rate(a, b, score, now, system),
    )


def elo_rater() -> Rater:
    """Returns Elo with K = 24."""

    def update(a: float, b: float, score: float, now: float) -> tuple[float, float]:
        change = 24 * (score - 1 / (1 + 10 ** ((b - a) / 400)))
        return a + change, b - change

    return Rater(
        "Elo, K = 24", lambda: 1500.0, lambda a, b, now: 1 / (1 + 10 ** ((b - a) / 400)), update
    )


def glicko2_rater(m: Any) -> Rater:
    """Returns glicko2 2.1.0, each game a period of its own (it knows no time; tau 0.5)."""

    def predict(a: Any, b: Any, now: float) -> float:
        phi = math.hypot(a.rd, b.rd) / GLICKO_SCALE
        g = 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)
        return 1 / (1 + math.exp(-g * (a.rating - b.rating) / GLICKO_SCALE))

    def update(a: Any, b: Any, score: float, now: float) -> tuple[Any, Any]:
        ar, ad, br, bd = a.rating, a.rd, b.rating, b.rd
        a.update_player([br], [bd], [score])
        b.update_player([ar], [ad], [1 - score])
        return a, b

    return Rater("glicko2 2.1.0, a period per game", m.Player, predict, update)


def glicko2_py_rater(m: Any) -> Rater:
    """Returns glicko2-py 0.1.0's pure update function, each game a period of its own (tau
    0.5)."""

    def predict(a: Triple, b: Triple, now: float) -> float:
        g = 1 / math.sqrt(1 + 3 * (a[1] ** 2 + b[1] ** 2) / math.pi**2)
        return 1 / (1 + math.exp(-g * (a[0] - b[0])))

    def update(a: Triple, b: Triple, score: float, now: float) -> tuple[Triple, Triple]:
        new_a = m.update_rating(*a, [(b[0], b[1], score)], tau=0.5)
        new_b = m.update_rating(*b, [(a[0], a[1], 1 - score)], tau=0.5)
        return tuple(new_a), tuple(new_b)

    return Rater(
        "glicko2-py 0.1.0, a period per game",
        lambda: (0.0, 350 / GLICKO_SCALE, 0.06),
        predict,
        update,
    )


def pyglicko2_rater(m: Any) -> Rater:
    """Returns pyglicko2 0.0.1a2, each game a period of its own (tau 0.5)."""
    outcome = {1.0: m.Outcome.WIN, 0.5: m.Outcome.DRAW, 0.0: m.Outcome.LOSS}
    m.Player.sys = m.System(0.5)  # the paper's tau, as the other two (its own default is 0.6)

    def predict(a: Any, b: Any, now: float) -> float:
        g = 1 / math.sqrt(1 + 3 * (a.φ**2 + b.φ**2) / math.pi**2)
        return 1 / (1 + math.exp(-g * (a.μ - b.μ)))

    def update(a: Any, b: Any, score: float, now: float) -> tuple[Any, Any]:
        m.update(a, b, outcome[score])
        return a, b

    return Rater("pyglicko2 0.0.1a2, a period per game", m.Player, predict, update)


def openskill_rater(m: Any) -> Rater:
    """Returns openskill's Plackett-Luce model, predicting with its predict_win."""
    model = m.PlackettLuce()

    def update(a: Any, b: Any, score: float, now: float) -> tuple[Any, Any]:
        ranks = [0, 1] if score == 1 else [1, 0] if score == 0 else [0, 0]
        [[a], [b]] = model.rate([[a], [b]], ranks=ranks)
        return a, b

    return Rater(
        "openskill 6.2.0, Plackett-Luce",
        model.rating,
        lambda a, b, now: float(model.predict_win([[a], [b]])[0]),
        update,
    )


def trueskill_rater(m: Any, draw: float) -> Rater:
    """Returns TrueSkill with the stream's draw rate."""
    env = m.TrueSkill(draw_probability=draw)

    def predict(a: Any, b: Any, now: float) -> float:
        spread = math.sqrt(2 * env.beta**2 + a.sigma**2 + b.sigma**2)
        return float(env.cdf((a.mu - b.mu) / spread))

    def update(a: Any, b: Any, score: float, now: float) -> tuple[Any, Any]:
        if score == 0:
            b, a = env.rate_1vs1(b, a)
            return a, b
        return tuple(env.rate_1vs1(a, b, drawn=score == 0.5))

    return Rater("trueskill 0.4.5", env.create_rating, predict, update)


def stream(raters: list[Rater], players: int, games: int, draw: float = 0.1) -> None:
    """Prints each rater's log loss and Brier score over the last two thirds of a stream of
    games between random pairs of players with hidden, drifting strengths (normal, 1500 ±
    350), each at its own pace, outcomes drawn from the logistic model, some drawn."""
    rng = random.Random(1)
    strength = [rng.gauss(1500, 350) for _ in range(players)]
    pace = [rng.expovariate(1.0) for _ in range(players)]
    state = [[rater.new() for _ in range(players)] for rater in raters]
    losses = [[0.0, 0.0, 0] for _ in raters]
    for game in range(games):
        now = 600.0 * (game + 1)
        i, j = rng.choices(range(players), weights=pace, k=2)
        if i == j:
            continue
        if game % 1000 == 0:
            strength = [s + rng.gauss(0, 15) for s in strength]
        p = 1 / (1 + 10 ** ((strength[j] - strength[i]) / 400))
        drawn = rng.random() < draw * 2 * min(p, 1 - p)
        score = 0.5 if drawn else 1.0 if rng.random() < p else 0.0
        for rater, kept, loss in zip(raters, state, losses, strict=True):
            expected = min(max(rater.predict(kept[i], kept[j], now), 1e-9), 1 - 1e-9)
            kept[i], kept[j] = rater.update(kept[i], kept[j], score, now)
            if game > games // 3:
                loss[0] += -(score * math.log(expected) + (1 - score) * math.log(1 - expected))
                loss[1] += (score - expected) ** 2
                loss[2] += 1
    print(
        f"prediction over the last two thirds of {games} games, {players} players (lower is better)"
    )
    for rater, (log_loss, brier, counted) in zip(raters, losses, strict=True):
        print(f"  {rater.name:42s} log loss {log_loss / counted:.4f}  Brier {brier / counted:.4f}")


def speed(raters: list[Rater], games: int, rounds: int) -> None:
    """Prints µs per game (both players updated) of each rater: the best of `rounds`
    interleaved runs of `games` games between two players."""
    best = [math.inf for _ in raters]
    for _ in range(rounds):
        for index, rater in enumerate(raters):
            a, b = rater.new(), rater.new()
            started = time.perf_counter()
            for game in range(games):
                a, b = rater.update(a, b, (game % 3) / 2, 3600.0 * (game + 1))
            best[index] = min(best[index], (time.perf_counter() - started) / games * 1e6)
    print(f"µs per game, both players updated (the best of {rounds} runs of {games})")
    for rater, micros in zip(raters, best, strict=True):
        print(f"  {rater.name:42s} {micros:7.1f}")


def main(argv: list[str] | None = None) -> None:
    """Runs the measurements and prints their tables."""
    parser = argparse.ArgumentParser(prog="python -m bench.ratings", description=__doc__)
    parser.add_argument("--candidates", type=Path, help="the folder the candidates are in")
    parser.add_argument("--quick", action="store_true", help="small runs, for a smoke test")
    args = parser.parse_args(argv)
    folder: Path | None = args.candidates
    worked_example(folder)
    agreement(folder, 200 if args.quick else 5000)
    raters = [
        relay_rater("relay.core.ratings, lichess constants", LICHESS),
        relay_rater("relay.core.ratings, the paper's constants", PAPER_PER_GAME),
    ]
    candidates: list[tuple[str, str, Callable[[Any], Rater]]] = [
        ("glicko2", "glicko2.glicko2", glicko2_rater),
        ("glicko2-py", "glicko2.math.algorithm", glicko2_py_rater),
        ("pyglicko2", "pyglicko2", pyglicko2_rater),
        ("openskill", "openskill.models", openskill_rater),
        ("trueskill", "trueskill", lambda m: trueskill_rater(m, 0.1)),
    ]
    # One at a time: what a rater holds keeps working once its module is forgotten, and the
    # next dist may install the same import name.
    for dist, module, make in candidates:
        with loaded(folder, dist, module) as m:
            if m is not None:
                raters.append(make(m))
    raters.append(elo_rater())
    stream(raters, 60 if args.quick else 300, 3000 if args.quick else 60_000)
    speed(raters, 200 if args.quick else 2000, 3 if args.quick else 60)


if __name__ == "__main__":
    main()

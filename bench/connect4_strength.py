"""Plays the strongest Connect Four level against the classic engine and prints a results table.

Run ``python -m bench.connect4_strength [--games N] [--depth 6] [--seed S] [--budget 2.0]``.
Each opening (the first two plies, drawn from a seeded shuffle of all 49) is played twice,
once with each engine moving first, so colour and opening effects cancel out; the default
98 games play every opening both ways (about 17 minutes; progress goes to
standard error).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from examples.board.rules import FIRST, SECOND
from examples.connect4.bot import DEFAULT_BUDGET, MAX_LEVEL, choose_move
from examples.connect4.classic import classic_move
from examples.connect4.rules import WIDTH, Board

__all__ = [
    "GameResult",
    "Tally",
    "add_match_options",
    "format_report",
    "main",
    "openings",
    "play_game",
]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game: the strong bot's colour, the winner (None for a draw), and move times."""

    strong_player: int
    winner: int | None
    strong_times: tuple[float, ...]
    classic_times: tuple[float, ...]
    moves: str


@dataclass(slots=True)
class Tally:
    """Wins, draws and losses of the strong bot over a set of games."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: list[GameResult] = field(default_factory=list)

    def add(self, result: GameResult) -> None:
        """Counts one game."""
        self.games.append(result)
        if result.winner is None:
            self.draws += 1
        elif result.winner == result.strong_player:
            self.wins += 1
        else:
            self.losses += 1


def openings(seed: int) -> list[str]:
    """Returns all 49 two-ply openings as move strings, in a seeded random order."""
    moves = [f"{a}{b}" for a in range(WIDTH) for b in range(WIDTH)]
    random.Random(seed).shuffle(moves)
    return moves


def play_game(
    opening: str, strong_player: int, depth: int, budget: float, rng: random.Random
) -> GameResult:
    """Plays one game from an opening and returns its result."""
    board = Board.from_moves(opening)
    strong_times: list[float] = []
    classic_times: list[float] = []
    moves = opening
    while not board.is_game_over():
        started = time.perf_counter()
        if board.turn == strong_player:
            move = choose_move(board, MAX_LEVEL, rng, time_budget=budget)
            strong_times.append(time.perf_counter() - started)
        else:
            move = classic_move(board, depth, rng)
            classic_times.append(time.perf_counter() - started)
        board = board.push(move)
        moves += str(move)
    outcome = board.outcome()
    winner = outcome.winner if outcome is not None else None
    return GameResult(strong_player, winner, tuple(strong_times), tuple(classic_times), moves)


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def format_report(tallies: dict[int, Tally], depth: int, budget: float) -> str:
    """Returns the markdown tables of results by colour and of move times."""
    lines = [
        f"Strongest level (budget {budget:g} s) vs classic engine at depth {depth}",
        "",
        "| strong bot plays | games | wins | draws | losses | win rate |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    total = Tally()
    for player, label in ((FIRST, "first"), (SECOND, "second")):
        tally = tallies[player]
        for game in tally.games:
            total.add(game)
        lines.append(_row(label, tally))
    lines.append(_row("**both**", total))
    strong = [t for g in total.games for t in g.strong_times]
    classic = [t for g in total.games for t in g.classic_times]
    lines += [
        "",
        "| engine | moves | median move time | p95 move time | max move time |",
        "|---|---:|---:|---:|---:|",
        _time_row("strong", strong),
        _time_row(f"classic depth {depth}", classic),
    ]
    return "\n".join(lines)


def _row(label: str, tally: Tally) -> str:
    games = len(tally.games)
    rate = f"{100 * tally.wins / games:.0f}%" if games else "-"
    return f"| {label} | {games} | {tally.wins} | {tally.draws} | {tally.losses} | {rate} |"


def _time_row(label: str, times: Sequence[float]) -> str:
    if not times:
        return f"| {label} | 0 | - | - | - |"
    median, p95 = statistics.median(times), _percentile(times, 0.95)
    return f"| {label} | {len(times)} | {median:.3f} s | {p95:.3f} s | {max(times):.3f} s |"


def add_match_options(parser: argparse.ArgumentParser, budget: str) -> None:
    """Adds the options of a strength run: games, classic depth, seed, budget, verbosity."""
    parser.add_argument(
        "--games", type=int, default=98, help="games to play (default 98: every opening twice)"
    )
    parser.add_argument("--depth", type=int, default=6, help="classic search depth (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed for openings and ties")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help=budget)
    parser.add_argument("--verbose", action="store_true", help="print each game as it ends")


def main(argv: Sequence[str] | None = None) -> None:
    """Parses the command line, plays the games and prints the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    add_match_options(parser, "strong bot seconds per move")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    tallies = {FIRST: Tally(), SECOND: Tally()}
    order = openings(args.seed)
    for index in range(args.games):
        strong_player = FIRST if index % 2 == 0 else SECOND
        opening = order[(index // 2) % len(order)]
        result = play_game(opening, strong_player, args.depth, args.budget, rng)
        tallies[strong_player].add(result)
        wins = sum(tally.wins for tally in tallies.values())
        print(f"\r{index + 1}/{args.games} games, {wins} won", end="", file=sys.stderr, flush=True)
        if args.verbose:
            verdict = (
                "draw"
                if result.winner is None
                else ("win" if result.winner == strong_player else "LOSS")
            )
            side = "first" if strong_player == FIRST else "second"
            print(f"game {index + 1}: strong {side}, {verdict}: {result.moves}", flush=True)
    print(file=sys.stderr)
    print(format_report(tallies, args.depth, args.budget))


if __name__ == "__main__":
    main()

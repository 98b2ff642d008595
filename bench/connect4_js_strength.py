"""Plays the browser's strongest Connect Four level (JavaScript, in node) against a reference.

Run ``python -m bench.connect4_js_strength [--opponent classic|python] [--games N]
[--depth 6] [--seed S] [--budget 2.0]``. The JavaScript engine
(examples/connect4/page/connect4-engine.mjs) runs in one node process, asked over stdin and
stdout for each move. The opponent is either the classic engine at a fixed depth, exactly as
in ``bench.connect4_strength`` (the same openings, each played once with either colour, the
same report), or the Python bot's strongest level with the same time budget, so the two
engines meet head to head.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from bench.connect4_strength import (
    GameResult,
    Tally,
    add_match_options,
    format_report,
    openings,
)
from examples.board.rules import FIRST, SECOND
from examples.connect4.bot import MAX_LEVEL, choose_move
from examples.connect4.classic import classic_move
from examples.connect4.rules import Board

__all__ = ["JsEngine", "format_head_to_head", "main", "play_game"]

ROOT = Path(__file__).resolve().parents[1]

NO_NODE = "node is not installed: the JavaScript engine runs in node"

SERVER = """
import { createInterface } from "node:readline";
import * as rules from "./examples/connect4/page/connect4.mjs";
import { chooseMove } from "./examples/connect4/page/connect4-engine.mjs";
for await (const line of createInterface({ input: process.stdin })) {
  const { moves, budget } = JSON.parse(line);
  const started = performance.now();
  const move = chooseMove(rules.Board.fromMoves([...moves]), "strong", { budget });
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(JSON.stringify({ move, seconds }) + "\\n");
}
"""
"""The node side: one JSON request a line ({moves, budget}), one answer a line ({move, seconds})."""


class JsEngine:
    """The JavaScript strongest level in a node process, asked for one move at a time."""

    def __init__(self, node: str | None = None) -> None:
        found = node or shutil.which("node") or shutil.which("nodejs")
        if found is None:
            raise RuntimeError(NO_NODE)
        self.process = subprocess.Popen(
            # served.mjs: the game's page folder and the page kit as one folder, as served.
            [found, "--import", "./tests/js/served.mjs", "--input-type=module", "-e", SERVER],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def move(self, moves: str, budget: float) -> tuple[int, float]:
        """Returns (the column, the seconds node spent choosing it) in the position of moves."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"moves": moves, "budget": budget}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        return int(answer["move"]), float(answer["seconds"])

    def close(self) -> None:
        """Ends the node process."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()

    def __enter__(self) -> JsEngine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def play_game(
    engine: JsEngine,
    opening: str,
    js_player: int,
    opponent: str,
    depth: int,
    budget: float,
    rng: random.Random,
) -> GameResult:
    """Plays one game from an opening; the result's "strong" side is the JavaScript engine."""
    board = Board.from_moves(opening)
    js_times: list[float] = []
    other_times: list[float] = []
    moves = opening
    while not board.is_game_over():
        if board.turn == js_player:
            move, seconds = engine.move(moves, budget)
            js_times.append(seconds)
        else:
            started = time.perf_counter()
            if opponent == "classic":
                move = classic_move(board, depth, rng)
            else:
                move = choose_move(board, MAX_LEVEL, rng, time_budget=budget)
            other_times.append(time.perf_counter() - started)
        board = board.push(move)
        moves += str(move)
    outcome = board.outcome()
    winner = outcome.winner if outcome is not None else None
    return GameResult(js_player, winner, tuple(js_times), tuple(other_times), moves)


def format_head_to_head(tallies: dict[int, Tally], budget: float) -> str:
    """Returns the markdown table of the JavaScript engine's results against the Python bot."""
    lines = [
        f"Browser strongest level (JavaScript) vs the Python bot's, {budget:g} s a move each",
        "",
        "| JavaScript plays | games | wins | draws | losses |",
        "|---|---:|---:|---:|---:|",
    ]
    total = Tally()
    for player, label in ((FIRST, "first"), (SECOND, "second")):
        tally = tallies[player]
        for game in tally.games:
            total.add(game)
        lines.append(
            f"| {label} | {len(tally.games)} | {tally.wins} | {tally.draws} | {tally.losses} |"
        )
    lines.append(
        f"| **both** | {len(total.games)} | {total.wins} | {total.draws} | {total.losses} |"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Parses the command line, plays the games and prints the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--opponent", choices=("classic", "python"), default="classic", help="default classic"
    )
    add_match_options(parser, "seconds per move of either bot")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    tallies = {FIRST: Tally(), SECOND: Tally()}
    order = openings(args.seed)
    with JsEngine() as engine:
        for index in range(args.games):
            js_player = FIRST if index % 2 == 0 else SECOND
            opening = order[(index // 2) % len(order)]
            result = play_game(
                engine, opening, js_player, args.opponent, args.depth, args.budget, rng
            )
            tallies[js_player].add(result)
            wins = sum(tally.wins for tally in tallies.values())
            print(f"\r{index + 1}/{args.games} games, {wins} won", end="", file=sys.stderr)
            if args.verbose:
                verdict = (
                    "draw"
                    if result.winner is None
                    else ("win" if result.winner == js_player else "LOSS")
                )
                side = "first" if js_player == FIRST else "second"
                print(f"game {index + 1}: js {side}, {verdict}: {result.moves}", flush=True)
    print(file=sys.stderr)
    if args.opponent == "classic":
        report = format_report(tallies, args.depth, args.budget)
        print(report.replace("Strongest level", "Browser strongest level (JavaScript)", 1))
    else:
        print(format_head_to_head(tallies, args.budget))


if __name__ == "__main__":
    main()

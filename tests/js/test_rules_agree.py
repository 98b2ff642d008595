"""The pages' JavaScript rules agree with the Python rules of examples/ on random games."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from examples.connect4 import rules as connect4
from examples.dots import rules as dots
from examples.xand0 import rules as xand0
from tests.support.components import require_binary

ROOT = Path(__file__).resolve().parents[2]


SCRIPT = """
import { readFileSync } from "node:fs";
import * as xand0 from "./relay/pages/xand0.mjs";
import * as connect4 from "./relay/pages/connect4.mjs";
import * as dots from "./relay/pages/dots.mjs";
const rules = { xand0, connect4, dots };
const games = JSON.parse(readFileSync(0, "utf8"));
const seen = games.map(({ game, moves }) => {
  const r = rules[game];
  const board = r.Board.fromMoves(moves);
  const outcome = board.outcome();
  return {
    text: board.toText(),
    winner: outcome === null ? null : outcome.winner,
    over: outcome !== null,
    legal: board.legalMoves().map(r.formatMove),
  };
});
process.stdout.write(JSON.stringify(seen));
"""


def _random_games(count: int, rng: random.Random) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    for i in range(count):
        moves: list[str] = []
        if i % 2:
            board4 = connect4.Board.empty()
            stop = rng.randrange(5, 43)
            while not board4.is_game_over() and len(moves) < stop:
                column = rng.choice(board4.legal_moves())
                board4 = board4.push(column)
                moves.append(connect4.format_move(column))
            outcome4 = board4.outcome()
            games.append(
                {
                    "game": "connect4",
                    "moves": moves,
                    "text": board4.to_text(),
                    "winner": None if outcome4 is None else outcome4.winner,
                    "over": outcome4 is not None,
                    "legal": [connect4.format_move(m) for m in board4.legal_moves()],
                }
            )
        else:
            board0 = xand0.Board.empty()
            stop = rng.randrange(1, 10)
            while not board0.is_game_over() and len(moves) < stop:
                cell = rng.choice(board0.legal_moves())
                board0 = board0.push(cell)
                moves.append(xand0.format_move(cell))
            outcome0 = board0.outcome()
            games.append(
                {
                    "game": "xand0",
                    "moves": moves,
                    "text": board0.to_text(),
                    "winner": None if outcome0 is None else outcome0.winner,
                    "over": outcome0 is not None,
                    "legal": sorted(xand0.format_move(m) for m in board0.legal_moves()),
                }
            )
    return games


def _random_dots_games(count: int, rng: random.Random) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    for _ in range(count):
        board, moves = dots.Board.empty(), list[str]()
        stop = rng.randrange(0, len(dots.LINES) + 1)
        while not board.is_game_over() and len(moves) < stop:
            line = rng.choice(board.legal_moves())
            board = board.push(line)
            moves.append(dots.format_move(line))
        outcome = board.outcome()
        games.append(
            {
                "game": "dots",
                "moves": moves,
                "text": board.to_text(),
                "winner": None if outcome is None else outcome.winner,
                "over": outcome is not None,
                "legal": [dots.format_move(m) for m in board.legal_moves()],
            }
        )
    return games


def test_javascript_rules_agree_with_python_rules_on_400_random_games() -> None:
    node = require_binary("node", "nodejs")
    games = _random_games(400, random.Random(20240601))
    games += _random_dots_games(200, random.Random(20240602))
    result = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT],
        cwd=ROOT,
        input=json.dumps([{"game": g["game"], "moves": g["moves"]} for g in games]),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    seen = json.loads(result.stdout)
    for game, js in zip(games, seen, strict=True):
        if game["game"] == "xand0":
            js["legal"] = sorted(js["legal"])
        expected = {key: game[key] for key in ("text", "winner", "over", "legal")}
        assert js == expected, game["moves"]

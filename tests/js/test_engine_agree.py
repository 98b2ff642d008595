"""The computer's JavaScript engines agree with the Python rules and bots on random positions."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from examples.connect4 import bot as connect4_bot
from examples.connect4 import rules as connect4
from examples.xand0 import bot as xand0_bot
from examples.xand0 import rules as xand0
from tests.support.components import require_binary

ROOT = Path(__file__).resolve().parents[2]

SOLVED_FROM_PLY = 24
"""Positions this deep or deeper are also solved exactly by both engines (quick at 18 empty)."""

SCRIPT = """
import { readFileSync } from "node:fs";
import * as connect4 from "./examples/connect4/page/connect4.mjs";
import * as engine4 from "./examples/connect4/page/connect4-engine.mjs";
import * as xand0 from "./examples/xand0/page/xand0.mjs";
import * as engine0 from "./examples/xand0/page/xand0-engine.mjs";
const { positions4, positions0, solvedFrom } = JSON.parse(readFileSync(0, "utf8"));
const seen4 = positions4.map((moves) => {
  const board = connect4.Board.fromMoves(moves);
  const { pos, mask } = engine4.split(board);
  const opp = pos ^ mask;
  return {
    pos: String(pos),
    mask: String(mask),
    legal: engine4.legalColumns(pos, mask),
    fours: [engine4.hasFour(pos), engine4.hasFour(opp)],
    winning: [String(engine4.winningCells(pos, mask)), String(engine4.winningCells(opp, mask))],
    evaluate: board.isGameOver() ? null : engine4.evaluate(board),
    solve: moves.length >= solvedFrom ? engine4.solve(board) : null,
    depth4: board.isGameOver() ? null : engine4.fixedDepthValues(pos, mask, board.ply, 4),
  };
});
const seen0 = positions0.map((moves) => {
  const board = xand0.Board.fromMoves(moves);
  const scores = board.isGameOver() ? [] : engine0.moveScores(board);
  return Object.fromEntries(scores.map(([move, value]) => [xand0.formatMove(move), value]));
});
process.stdout.write(JSON.stringify({ seen4, seen0 }));
"""


def _connect4_positions(count: int, rng: random.Random) -> list[str]:
    positions: list[str] = []
    while len(positions) < count:
        board, moves = connect4.Board.empty(), ""
        stop = rng.randrange(0, 43)
        while not board.is_game_over() and len(moves) < stop:
            column = rng.choice(board.legal_moves())
            board, moves = board.push(column), moves + str(column)
        positions.append(moves)
    return positions


def _deep_connect4_positions(count: int, rng: random.Random) -> list[str]:
    """Returns unfinished positions of 24 to 32 pieces, which random games seldom reach."""
    positions: list[str] = []
    while len(positions) < count:
        board, moves = connect4.Board.empty(), ""
        stop = rng.randrange(SOLVED_FROM_PLY, 33)
        while not board.is_game_over() and len(moves) < stop:
            column = rng.choice(board.legal_moves())
            board, moves = board.push(column), moves + str(column)
        if not board.is_game_over():
            positions.append(moves)
    return positions


def _xand0_positions(count: int, rng: random.Random) -> list[list[str]]:
    positions: list[list[str]] = []
    while len(positions) < count:
        board, moves = xand0.Board.empty(), list[str]()
        stop = rng.randrange(0, 10)
        while not board.is_game_over() and len(moves) < stop:
            cell = rng.choice(board.legal_moves())
            board, moves = board.push(cell), [*moves, xand0.format_move(cell)]
        positions.append(moves)
    return positions


def _expected4(moves: str) -> dict[str, Any]:
    board = connect4.Board.from_moves(moves)
    pos, mask = board.bits[board.turn], board.mask
    opp = pos ^ mask
    over = board.is_game_over()
    return {
        "pos": str(pos),
        "mask": str(mask),
        "legal": board.legal_moves(),
        "fours": [connect4.has_four(pos), connect4.has_four(opp)],
        "winning": [str(connect4.winning_cells(pos, mask)), str(connect4.winning_cells(opp, mask))],
        "evaluate": None if over else connect4_bot.evaluate(board),
        "solve": connect4_bot.solve(board) if len(moves) >= SOLVED_FROM_PLY else None,
        "depth4": None if over else _fixed_depth_values(board, 4),
    }


def _fixed_depth_values(board: connect4.Board, depth: int) -> list[list[int]]:
    """Returns [column, value] per move as the Python bot's fixed-depth levels search them."""
    # The bot's own internals, as its _fixed_depth_move uses them: the port must match them.
    pos, mask, moves = board.bits[board.turn], board.mask, board.ply
    candidates, _ = connect4_bot._non_losing(pos, mask)
    engine = connect4_bot._Engine()
    opp = pos ^ mask
    theirs = connect4.winning_cells(opp, mask)
    inf = 10 * connect4_bot.WIN_SCORE
    return [
        [
            connect4_bot._column(move),
            -engine.search(
                opp, mask | move, moves + 1, depth - 1, -inf, inf, theirs & ~move, cells
            ),
        ]
        for _, move, cells in connect4_bot._ordered(pos, mask, candidates)
    ]


def _expected0(moves: list[str]) -> dict[str, int]:
    board = xand0.Board.from_moves(moves)
    if board.is_game_over():
        return {}
    scores = xand0_bot.move_scores(board)
    return {xand0.format_move(move): value for move, value in scores.items()}


def test_javascript_engines_agree_with_python_bots_on_random_positions() -> None:
    node = require_binary("node", "nodejs")
    rng = random.Random(20261122)
    positions4 = _connect4_positions(400, rng) + _deep_connect4_positions(60, rng)
    positions0 = _xand0_positions(300, rng)
    request = {"positions4": positions4, "positions0": positions0, "solvedFrom": SOLVED_FROM_PLY}
    result = subprocess.run(
        [node, "--import", "./tests/js/served.mjs", "--input-type=module", "-e", SCRIPT],
        cwd=ROOT,
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    seen = json.loads(result.stdout)
    solved = 0
    for moves, js in zip(positions4, seen["seen4"], strict=True):
        assert js == _expected4(moves), moves
        solved += js["solve"] is not None and js["evaluate"] is not None
    assert solved >= 50, solved  # the solvers met many unfinished positions, not a handful
    for moves0, js0 in zip(positions0, seen["seen0"], strict=True):
        assert js0 == _expected0(moves0), moves0

"""The pages' JavaScript rules agree with the Python rules of examples/ on random games, and
say how a finished one ended in the same words (endWords, the Python Rules.words)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from examples.connect4 import game as connect4_game
from examples.connect4 import rules as connect4
from examples.dots import game as dots_game
from examples.dots import rules as dots
from examples.xand0 import game as xand0_game
from examples.xand0 import rules as xand0
from tests.support.components import require_binary

ROOT = Path(__file__).resolve().parents[2]


SCRIPT = """
import { readFileSync } from "node:fs";
import * as xand0 from "./examples/xand0/page/xand0.mjs";
import * as connect4 from "./examples/connect4/page/connect4.mjs";
import * as dots from "./examples/dots/page/dots.mjs";
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
    words: r.endWords(board),
  };
});
process.stdout.write(JSON.stringify(seen));
"""


RULES: dict[str, tuple[Any, int]] = {
    "xand0": (xand0, 9),
    "connect4": (connect4, 42),
    "dots": (dots, 24),
}
"""Each game's Python rules, and the most moves one of its games can have."""
WORDS = {
    "xand0": xand0_game.RULES.words,
    "connect4": connect4_game.RULES.words,
    "dots": dots_game.RULES.words,
}
"""Each game's words for how a finished position ended (Rules.words)."""


def _random_game(name: str, rng: random.Random) -> dict[str, Any]:
    """Plays a random game of `name` for a random number of moves; returns what it came to."""
    rules, most = RULES[name]
    board, moves = rules.Board.empty(), list[str]()
    stop = rng.randrange(0, most + 1)
    while not board.is_game_over() and len(moves) < stop:
        move = rng.choice(board.legal_moves())
        board = board.push(move)
        moves.append(rules.format_move(move))
    outcome = board.outcome()
    return {
        "game": name,
        "moves": moves,
        "text": board.to_text(),
        "winner": None if outcome is None else outcome.winner,
        "over": outcome is not None,
        "legal": sorted(rules.format_move(m) for m in board.legal_moves()),
        "words": WORDS[name](board),  # type: ignore[misc]
    }


def test_javascript_rules_agree_with_python_rules_on_600_random_games() -> None:
    node = require_binary("node", "nodejs")
    rng = random.Random(20240601)
    games = [_random_game(name, rng) for name in RULES for _ in range(200)]
    result = subprocess.run(
        [node, "--import", "./tests/js/served.mjs", "--input-type=module", "-e", SCRIPT],
        cwd=ROOT,
        input=json.dumps([{"game": g["game"], "moves": g["moves"]} for g in games]),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    seen = json.loads(result.stdout)
    for game, js in zip(games, seen, strict=True):
        js["legal"] = sorted(js["legal"])
        expected = {key: game[key] for key in ("text", "winner", "over", "legal", "words")}
        assert js == expected, game["moves"]
    ended = {g["words"] for g in games if g["over"]}
    assert {"three in a row", "four in a row", "the board is full"} <= ended  # each kind met
    assert any(words.startswith("more boxes: ") for words in ended)

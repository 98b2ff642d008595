"""The JavaScript host tells a referee's verdict in the same words as the SDK: who won and how
("You win: four in a row."), even when this side's game knew who won (endings.mjs
verdictWords and ending, sdk/outcome.py verdict_words and sdk/_endings.py ending)."""

from __future__ import annotations

import itertools
import json
import subprocess
from pathlib import Path

from sdk._endings import ending
from sdk.events import Ended, Moved
from sdk.outcome import Result, verdict_words
from tests.support.components import require_binary

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import { readFileSync } from "node:fs";
import * as endings from "./relay/pages/endings.mjs";
const { words, verdicts } = JSON.parse(readFileSync(0, "utf8"));
const said = words.map(([result, how]) => endings.verdictWords(result, how));
const told = verdicts.map(([winner, detail, seat, game]) => endings.ending(
  { reason: "over", seat: 0, at: 9, detail, winner, refereed: true }, seat, () => game,
  { type: "move", end: true }, 5));
process.stdout.write(JSON.stringify({ said, told }));
"""

RESULTS = ["won", "lost", "drawn", "unknown"]
HOWS = ["", " ", "three in a row", "four in a row.", "a draw: the board is full", "A draw", "x.."]


Verdict = tuple[int | None, str, int, str]
"""A referee's `over`: the winner, its words, this side's seat, and this side's game's result."""


def run_node(words: list[tuple[str, str]], verdicts: list[Verdict]) -> dict[str, list[object]]:
    node = require_binary("node", "nodejs")
    answer = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT],
        cwd=ROOT,
        input=json.dumps({"words": words, "verdicts": verdicts}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    seen: dict[str, list[object]] = json.loads(answer.stdout)
    return seen


def python_told(verdict: Verdict) -> list[object]:
    winner, detail, seat, game = verdict
    ended = Ended(10, "over", 0, at=9, detail=detail, winner=winner, refereed=True)
    result, reason, dialog = ending(ended, seat, lambda: Result(game), Moved(9, 0, "m", True), 5)
    return [str(result), str(reason), dialog]


def test_the_javascript_tells_a_verdict_in_the_sdks_words() -> None:
    words = list(itertools.product(RESULTS, HOWS))
    details = ("four in a row", "", "a draw: the board is full")
    verdicts = list(itertools.product((0, 1, None), details, (0, 1), RESULTS[:3]))
    seen = run_node(words, verdicts)
    assert seen["said"] == [verdict_words(Result(result), how) for result, how in words]
    assert seen["said"][words.index(("won", "three in a row"))] == "You win: three in a row."
    assert seen["told"] == [python_told(verdict) for verdict in verdicts]
    known = verdicts.index((0, "four in a row", 1, "lost"))
    assert seen["told"][known] == ["lost", "over", "You lose: four in a row."]

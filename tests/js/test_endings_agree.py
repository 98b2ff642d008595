"""The JavaScript host's endings (endings.mjs) say the same words and results as the SDK's
(sdk/_endings.py) for every kind of end, with and without a referee, and agree on the
reasons a dispute sends."""

from __future__ import annotations

import itertools
import json
import subprocess
from pathlib import Path
from typing import Any

from sdk import _endings as endings
from sdk import errors
from sdk._claims import WRONG_CLAIM
from sdk.events import Ended, Moved, Passed
from sdk.outcome import Result
from tests.support.components import require_binary

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import { readFileSync } from "node:fs";
import * as endings from "./relay/pages/endings.mjs";
import * as errors from "./relay/pages/errors.mjs";
const cases = JSON.parse(readFileSync(0, "utf8"));
const seen = cases.map(({ ended, seat, game, about, number }) =>
  endings.ending(ended, seat, () => game, about, number));
const words = {
  rejected: [endings.rejected(7, false, "why"), endings.rejected(null, true, "why")],
  local: [endings.localDispute(7), endings.localDispute(null)],
  reasons: [errors.NO_REASON, errors.NO_PASS_REASON, endings.NOT_OVER, endings.UNCLAIMED_END],
  clean: errors.cleanReason(" a\\nb\\u0085c " + "x".repeat(300)),
};
process.stdout.write(JSON.stringify({ seen, words }));
"""

REASONS = [
    "agreed", "disputed", "unconfirmed", "resigned", "abandoned", "timeout", "drawn", "stalled",
    "over", "illegal",
]  # fmt: skip


def cases() -> list[dict[str, Any]]:
    """Returns ends of every reason, seat, verdict, detail, disputed event and game result."""
    found = []
    verdicts: list[dict[str, Any]] = [{}, {"winner": 0}, {"winner": 1}, {"winner": None}]
    abouts: list[dict[str, Any] | None] = [
        None,
        {"type": "move", "end": False},
        {"type": "move", "end": True},
        {"type": "pass"},
    ]
    details = [
        "",
        "column 3 is full",
        endings.NOT_OVER,
        WRONG_CLAIM.format(claimed="a win", found="a loss"),
    ]
    for reason, seat, verdict, detail, about, number, game in itertools.product(
        REASONS, (0, 1), verdicts, details, abouts, (None, 12), (None, "won", "lost", "drawn")
    ):
        ended = {"reason": reason, "seat": 0, "at": 9, "detail": detail, **verdict}
        ended |= {"refereed": "winner" in verdict, "winner": verdict.get("winner")}
        found.append({"ended": ended, "seat": seat, "game": game, "about": about, "number": number})
    return found


def python_ending(case: dict[str, Any]) -> list[Any]:
    raw, about = case["ended"], case["about"]
    ended = Ended(10, raw["reason"], raw["seat"], raw["at"], raw["detail"], raw["winner"],
                  raw["refereed"])  # fmt: skip
    event: Moved | Passed | None = None
    if about is not None:
        event = Passed(9, 0) if about["type"] == "pass" else Moved(9, 0, "m", about["end"])
    game = None if case["game"] is None else Result(case["game"])
    result, reason, dialog = endings.ending(
        ended, case["seat"], lambda: game, event, case["number"]
    )
    return [str(result), str(reason), dialog]


def test_the_javascript_endings_say_what_the_sdks_say() -> None:
    node = require_binary("node", "nodejs")
    every = cases()
    answer = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT],
        cwd=ROOT,
        input=json.dumps(every),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    seen = json.loads(answer.stdout)
    assert len(seen["seen"]) == len(every)
    for case, javascript in zip(every, seen["seen"], strict=True):
        assert javascript == python_ending(case), case
    words = seen["words"]
    assert words["rejected"] == [
        endings.rejected(7, False, "why"),
        endings.rejected(None, True, "why"),
    ]
    assert words["local"] == [endings.local_dispute(7), endings.local_dispute(None)]
    assert words["reasons"] == [
        errors.NO_REASON, errors.NO_PASS_REASON, endings.NOT_OVER, endings.UNCLAIMED_END
    ]  # fmt: skip
    assert words["clean"] == errors.clean_reason(" a\nb\x85c " + "x" * 300)

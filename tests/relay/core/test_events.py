"""A match's events as bytes on the wire (relay/core/events.py): each is the JSON object its
fields say, in the documented order, a move's text exact whatever it holds."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from relay.core.clock import TimeControl
from relay.core.events import ended_event, move_event, pass_event, started_event
from relay.core.verdicts import Ending, dispute_tail

TEXTS = ["", "e4", 'say "hi"\n\\', "\U0001f600 ünïcödé \u2028\u2029", '{"json": [1]}', "\x00\x1f"]
"""Move texts that a JSON writer must escape, or that JavaScript reads as line ends."""


def fields(event: bytes) -> list[tuple[str, Any]]:
    """Returns the event's fields in their order on the wire."""
    return list(orjson.loads(event).items())


def test_the_started_event_names_the_first_mover() -> None:
    assert started_event(1, 0) == b'{"seq":1,"type":"started","first":0}'
    assert fields(started_event(1, 1)) == [("seq", 1), ("type", "started"), ("first", 1)]


def test_a_clocked_start_names_the_control_and_both_seats_starting_seconds() -> None:
    event = orjson.loads(started_event(1, 1, TimeControl("fischer", 300, 3)))
    assert event["time_control"] == {"kind": "fischer", "base": 300, "increment": 3}
    assert event["left"] == [300.0, 300.0]
    deadline = orjson.loads(started_event(1, 0, TimeControl("deadline", 86400)))
    assert deadline["time_control"] == {"kind": "deadline", "per_move": 86400}
    assert deadline["left"] == [86400.0, 86400.0]


@pytest.mark.parametrize("text", TEXTS)
def test_a_moves_text_comes_back_exact(text: str) -> None:
    event = orjson.loads(move_event(7, 1, text, False))
    assert event == {"seq": 7, "type": "move", "seat": 1, "move": text, "end": False}


def test_a_move_carries_its_end_its_time_left_and_its_claim_last() -> None:
    assert fields(move_event(4, 0, "22", True, 61_001, "win")) == [
        ("seq", 4),
        ("type", "move"),
        ("seat", 0),
        ("move", "22"),
        ("end", True),
        ("left", 61.001),
        ("claim", "win"),
    ]
    assert orjson.loads(move_event(4, 0, "22", True, claim="draw"))["claim"] == "draw"
    assert "left" not in orjson.loads(move_event(4, 0, "22", True, claim="draw"))
    assert "claim" not in orjson.loads(move_event(4, 0, "22", True, 1000))


def test_a_pass_names_its_seat_and_with_a_clock_its_time_left() -> None:
    assert orjson.loads(pass_event(3, 1)) == {"seq": 3, "type": "pass", "seat": 1}
    assert orjson.loads(pass_event(3, 1, 2_500))["left"] == 2.5
    assert orjson.loads(pass_event(3, 1, -5))["left"] == 0.0


def test_the_ended_event_gives_its_reason_and_seat_then_a_disputes_or_a_verdicts_fields() -> None:
    assert orjson.loads(ended_event(9, "resigned", 0)) == {
        "seq": 9,
        "type": "ended",
        "reason": "resigned",
        "seat": 0,
    }
    disputed = ended_event(9, "disputed", 1, dispute_tail(8, 'not "legal"'))
    assert fields(disputed)[2:] == [
        ("reason", "disputed"),
        ("seat", 1),
        ("at", 8),
        ("detail", 'not "legal"'),
    ]
    verdict = Ending("over", 0, None, 8, "three in a row\n")
    assert orjson.loads(ended_event(9, verdict.reason, verdict.seat, verdict.tail())) == {
        "seq": 9,
        "type": "ended",
        "reason": "over",
        "seat": 0,
        "winner": None,
        "at": 8,
        "detail": "three in a row\n",
    }

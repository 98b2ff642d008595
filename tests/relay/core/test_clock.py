"""Time controls and clocks (relay/core/clock.py): a control's pairing key and JSON,
milliseconds as the scripts round them and as events write them, and a seat charged for its
turn."""

from __future__ import annotations

import orjson
import pytest

from relay.core.clock import Clock, TimeControl, left_text, millis

DAYS_30 = 30 * 86400


@pytest.mark.parametrize(
    "control",
    [
        TimeControl("fischer", 300, 3),
        TimeControl("fischer", 1, 0),
        TimeControl("fischer", DAYS_30, 3600),
        TimeControl("deadline", 259200),
    ],
)
def test_a_controls_key_and_json_round_trip(control: TimeControl) -> None:
    assert TimeControl.from_key(control.key) == control
    assert orjson.loads(control.json()) == control.as_dict()


def test_the_keys_are_the_pairing_texts_and_empty_is_no_clock() -> None:
    assert TimeControl("fischer", 300, 3).key == "fischer:300:3"
    assert TimeControl("deadline", 259200).key == "deadline:259200"
    assert TimeControl.from_key("") is None
    assert TimeControl("deadline", 60).as_dict() == {"kind": "deadline", "per_move": 60}


def test_milliseconds_are_rounded_half_up_as_the_scripts_round_them() -> None:
    assert millis(1.25) == 1250
    assert millis(0.0625) == 63  # 62.5 ms: half rounds up
    assert millis(0.0624) == 62
    assert millis(1_800_000_000.5) == 1_800_000_000_500
    assert millis(0.0) == 0


@pytest.mark.parametrize(
    ("ms", "text"),
    [(287_500, b"287.500"), (5, b"0.005"), (61_001, b"61.001"), (0, b"0.000"), (-40, b"0.000")],
)
def test_time_left_is_written_in_seconds_with_three_decimals_never_below_zero(
    ms: int, text: bytes
) -> None:
    assert left_text(ms) == text
    assert orjson.loads(text) == max(ms, 0) / 1000


def test_only_the_seat_to_move_is_charged_since_its_turn_began() -> None:
    clock = Clock(TimeControl("fischer", 300, 3), (300_000, 200_000), turn_at=1_000_000)
    assert clock.left_at(None, 1_000.0 + 50) == (300.0, 200.0)
    assert clock.left_at(0, 1_000.0 + 50) == (250.0, 200.0)
    assert clock.left_at(1, 1_000.0 + 0.25) == (300.0, 199.75)


def test_a_seat_out_of_time_has_zero_left_never_less() -> None:
    clock = Clock(TimeControl("fischer", 5, 0), (5_000, 5_000), turn_at=1_000_000)
    assert clock.left_at(1, 1_000.0 + 3600) == (5.0, 0.0)

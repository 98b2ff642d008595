"""Which writes a host posts again when the relay's log lost its tail (sdk/_healing.py)."""

from __future__ import annotations

import pytest

from sdk import Ended, Event, Moved, Passed, ProtocolError, Started
from sdk._healing import Write, check_log, lost_writes

DELIVERED: dict[int, Event] = {
    1: Started(1, 0),
    2: Moved(2, 0, "f1", False),
    3: Moved(3, 1, "s1", False),
    4: Passed(4, 0),
    5: Moved(5, 1, "s2", False),
    6: Moved(6, 0, "f2 é\n", True),
}


def test_own_moves_and_passes_above_the_log_end_are_posted_again_oldest_first() -> None:
    assert lost_writes(DELIVERED, 3, 0, None) == [
        Write("pass", 3),
        Write("move", 5, "f2 é\n", True),
    ]
    assert lost_writes(DELIVERED, 3, 1, None) == [Write("move", 4, "s2")]


def test_nothing_is_posted_again_when_the_log_kept_every_write() -> None:
    assert lost_writes(DELIVERED, 6, 0, None) == []


def test_the_refused_write_is_posted_again_unless_the_log_passed_it() -> None:
    pending = Write("move", 6, "s3")
    assert lost_writes(DELIVERED, 4, 1, pending) == [Write("move", 4, "s2"), pending]
    assert lost_writes(DELIVERED, 7, 1, pending) == []


def test_a_lost_write_known_twice_is_posted_once() -> None:
    assert lost_writes(DELIVERED, 4, 0, Write("move", 5, "f2 é\n", True)) == [
        Write("move", 5, "f2 é\n", True)
    ]


def test_a_log_that_keeps_what_the_game_saw_passes_the_check() -> None:
    check_log([DELIVERED[seq] for seq in (1, 2, 3)], DELIVERED)
    check_log([*DELIVERED.values(), Ended(7, "agreed", 1)], DELIVERED)


def test_a_log_with_another_event_where_the_game_saw_one_is_refused() -> None:
    with pytest.raises(ProtocolError, match="already handled"):
        check_log([DELIVERED[1], Moved(2, 0, "other", False)], DELIVERED)

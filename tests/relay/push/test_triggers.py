"""The triggers' rules without a relay: when a clock is low, how an end is told to each seat,
and that the sinks only queue (a full queue drops, counted; a turn of a seat without a player
key is not queued at all)."""

from __future__ import annotations

import pytest

from relay import MemoryStore
from relay.core.turns import TurnNotice
from relay.push.messages import Notice
from relay.push.triggers import LOW_LEAST, PushTriggers, low_after, words


def test_a_clock_is_low_with_a_tenth_of_its_time_and_ten_seconds_at_least() -> None:
    assert low_after(3 * 86400) == pytest.approx(7.2 * 3600)
    assert low_after(300) == 30
    assert low_after(60) == LOW_LEAST == 10


def test_an_end_is_told_from_each_seats_side() -> None:
    assert words("resigned", 1, 1) == "you resigned."
    assert words("resigned", 1, 0) == "your partner resigned."
    assert words("timeout", 0, 1) == "your partner ran out of time."
    assert words("drawn", 0, 1) == "drawn by agreement."
    assert words("illegal", 0, 1) == "the match is over (illegal)."


async def test_the_sinks_only_queue_and_drop_past_the_queue() -> None:
    pushed: list[tuple[str, str, Notice]] = []
    triggers = PushTriggers(MemoryStore(), lambda *push: pushed.append(push), 1.0, queue=2)
    triggers.turn(TurnNotice("m", "g", 0, 2, "", 0.0, "", False))  # no player key: not queued
    triggers.turn(TurnNotice("m", "g", 0, 2, "", 0.0, "digest", False))
    triggers.ended("m")
    triggers.ended("m")
    assert (triggers._queue.qsize(), triggers.counts["dropped"]) == (2, 1)
    assert pushed == []

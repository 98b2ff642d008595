"""A seat's pace of table writes (relay/core/throttle.py): a burst of per_minute writes at once
is let through, the next is told how long to wait, and one a step later passes again."""

from __future__ import annotations

import pytest

from relay.core.throttle import admit

NOW = 1_800_000_000.0


def burst(per_minute: int, now: float = NOW, due: float = 0.0) -> tuple[int, float, float]:
    """Writes at `now` until one is refused; returns how many passed, the due time they left
    and the wait the refused one was told."""
    passed = 0
    while True:
        after, wait = admit(due, now, per_minute)
        if wait:
            assert after == due  # a refused write changes nothing
            return passed, due, wait
        assert after > due
        due, passed = after, passed + 1
        assert passed <= per_minute, "more than a burst let through"


@pytest.mark.parametrize("per_minute", [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60])
def test_a_burst_of_per_minute_writes_passes_and_the_next_waits_one_step(per_minute: int) -> None:
    passed, due, wait = burst(per_minute)
    assert passed == per_minute
    assert wait == pytest.approx(60.0 / per_minute)
    # Once that wait is over one more passes, and only one.
    again, _, wait_again = burst(per_minute, NOW + wait, due)
    assert again == 1 and wait_again == pytest.approx(60.0 / per_minute)


@pytest.mark.parametrize("per_minute", [9, 11, 14])
def test_a_full_burst_passes_whatever_the_pace(per_minute: int) -> None:
    assert burst(per_minute)[0] == per_minute


def test_writes_at_the_pace_itself_always_pass() -> None:
    due = 0.0
    for n in range(200):
        due, wait = admit(due, NOW + n * 3.0, 20)
        assert wait == 0.0
    assert due == NOW + 200 * 3.0


def test_a_quiet_seat_has_its_whole_burst_back() -> None:
    _, due, _ = burst(10)  # due a minute after the burst
    assert burst(10, due, due)[0] == 10
    assert burst(10, due - 1.0, due)[0] == 9


def test_the_wait_counts_down_as_time_passes() -> None:
    _, due, wait = burst(6)
    kept, left = admit(due, NOW + 4.0, 6)
    assert kept == due and left == pytest.approx(wait - 4.0)
    assert admit(due, NOW + wait, 6)[1] == 0.0

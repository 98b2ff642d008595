"""The push throttle, over the webhook's shared state: a notice at most once for the whole
fleet (a retried write pushes nothing again), one turn or challenge per player per window,
the rest told together at its end; a low clock and a match's end at once."""

from __future__ import annotations

import pytest

from relay.push.messages import Kind, Notice, challenge, clock_low, ended, turn
from relay.push.throttle import PushThrottle
from relay.store.memory.hooks import MemoryHookState


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def a_turn(match: str, seq: int) -> tuple[str, Notice]:
    return f"{match}:1:{seq}", turn("xand0", match, 1, due=None, now=0)


async def test_a_turn_is_pushed_once_however_often_it_is_told() -> None:
    throttle = PushThrottle(MemoryHookState(), every=0)
    identity, notice = a_turn("m1", 4)
    assert await throttle.admit("p", identity, notice) == [notice]
    assert await throttle.admit("p", identity, notice) == []
    # Another process, the same state: still once.
    assert await PushThrottle(throttle.state, every=0).admit("p", identity, notice) == []
    # The webhook's claim of the same turn is its own.
    assert await throttle.state.claim(identity)


async def test_turns_within_a_window_are_held_and_told_together_at_its_end() -> None:
    clock = Clock()
    throttle = PushThrottle(MemoryHookState(clock), every=600)
    first = a_turn("m1", 2)
    assert await throttle.admit("p", *first) == [first[1]]
    assert await throttle.admit("p", *a_turn("m2", 3)) == []
    assert await throttle.admit("p", *a_turn("m2", 5)) == []
    assert await throttle.admit("q", *a_turn("m3", 2)) != []  # another player's own window
    assert await throttle.window_left("p") == 600
    assert await throttle.flush("p") == []  # the window is still open: held on
    clock.now += 600
    (told,) = await throttle.flush("p")
    assert told.kind is Kind.TURN and told.match == "m2"  # one match: its newest turn
    assert await throttle.flush("p") == []


async def test_several_matches_held_are_one_digest() -> None:
    clock = Clock()
    throttle = PushThrottle(MemoryHookState(clock), every=60)
    await throttle.admit("p", *a_turn("m1", 2))
    await throttle.admit("p", *a_turn("m2", 2))
    await throttle.admit("p", "c9", challenge("xand0", "c9", "Ann", until=2000, now=1000))
    clock.now += 61
    identity, notice = a_turn("m3", 2)
    (told,) = await throttle.admit("p", identity, notice)  # a new window: held ones go with it
    assert told.kind is Kind.DIGEST and told.body == "Your turn in 2 matches, and 1 challenge."
    assert told.url == "index.html" and told.tag == "digest" and told.ttl == 86400


async def test_a_low_clock_and_an_end_are_never_held_but_told_once() -> None:
    throttle = PushThrottle(MemoryHookState(), every=600)
    await throttle.admit("p", *a_turn("m1", 2))
    low = clock_low("xand0", "m1", 1, 20)
    assert await throttle.admit("p", "m1:1:2", low) == [low]
    assert await throttle.admit("p", "m1:1:2", low) == []
    over = ended("xand0", "m1", "X won.")
    assert await throttle.admit("p", "m1", over) == [over]
    assert await throttle.admit("p", "m1", over) == []


async def test_a_window_opened_elsewhere_keeps_the_held_notices_for_its_end() -> None:
    clock = Clock()
    state = MemoryHookState(clock)
    throttle = PushThrottle(state, every=60)
    await throttle.admit("p", *a_turn("m1", 2))
    await throttle.admit("p", *a_turn("m2", 2))
    clock.now += 61
    assert await state.open_window("push:p", 60)  # another process's push went meanwhile
    assert await throttle.flush("p") == []
    clock.now += 61
    assert [n.match for n in await throttle.flush("p")] == ["m2"]


def test_a_negative_window_is_refused() -> None:
    with pytest.raises(ValueError, match=">= 0 seconds"):
        PushThrottle(MemoryHookState(), every=-1)

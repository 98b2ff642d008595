"""The calls the store tests share: the clock they pass, pairing, moves, the events as JSON,
and the refusal a call must raise."""

from __future__ import annotations

import asyncio
import time

import orjson
import pytest

from relay import Action, RelayError, Store, Ticket
from relay.core.clock import TimeControl

__all__ = ["FISCHER", "expect_error", "move", "mover", "now", "pair", "parse", "start", "whole_now"]

FISCHER = TimeControl("fischer", 300, 3)
"""A Fischer control of 5 minutes and 3 s a move."""


def now() -> float:
    """Returns the wall clock; tests add seconds to it to move time on."""
    return time.time()


def whole_now() -> float:
    """Returns the wall clock in whole seconds, so that the seconds tests add to it make
    whole milliseconds exactly."""
    return float(int(time.time()))


def parse(events: list[bytes]) -> list[dict[str, object]]:
    """Returns the events as JSON objects."""
    return [orjson.loads(event) for event in events]


async def pair(store: Store, game: str = "xand0", version: str = "1") -> tuple[Ticket, Ticket]:
    """Seeks twice and returns both tickets (seat 0's first), the match started: seat 0
    polls again once paired, as a live client does."""
    first = await store.matches.seek(game, version, None, now())
    second = await store.matches.seek(game, version, None, now())
    assert (first.match, first.seat, second.seat) == (second.match, 0, 1)
    await start(store, first)
    return first, second


async def start(store: Store, waiting: Ticket, at: float | None = None) -> None:
    """Starts a paired match as a live waiting seeker does: seat 0 polls again (at `at`,
    default now)."""
    await store.matches.poll(waiting.match, waiting.token, 0, now() if at is None else at)


async def mover(store: Store, a: Ticket, b: Ticket) -> tuple[Ticket, Ticket]:
    """Returns the tickets as (seat to move first, the other)."""
    _, events = await store.matches.poll(a.match, None, 0, now())
    first = parse(events)[0]["first"]
    return (a, b) if first == a.seat else (b, a)


async def expect_error(code: str, call: object) -> RelayError:
    """Awaits call and returns the RelayError it raised, checking its code."""
    assert asyncio.iscoroutine(call)
    with pytest.raises(RelayError) as caught:
        await call
    assert caught.value.code == code, caught.value
    return caught.value


def move(after: int, text: str, end: bool = False) -> Action:
    """Returns a move action."""
    return Action("move", after, text, end)

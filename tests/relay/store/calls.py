"""The calls the store tests share: the clock they pass, pairing (with player keys and
contacts), moves, the events as JSON, the turn notices told, and the refusal a call must
raise."""

from __future__ import annotations

import asyncio
import time

import orjson
import pytest

from relay import Action, RelayError, Store, Ticket
from relay.core.clock import TimeControl
from relay.core.turns import TurnNotice

__all__ = [
    "FISCHER",
    "expect_error",
    "listen",
    "move",
    "mover",
    "now",
    "pair",
    "paired",
    "parse",
    "start",
    "whole_now",
]

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


def listen(store: Store) -> list[TurnNotice]:
    """Sets the store's turn sink; returns the list of the notices it is told."""
    told: list[TurnNotice] = []

    def sink(notice: TurnNotice) -> None:
        told.append(notice)

    store.hooks.turns = sink
    return told


async def paired(
    store: Store,
    control: TimeControl | None,
    t: float,
    game: str = "corr",
    players: tuple[str | None, str | None] = (None, None),
    contacts: tuple[str | None, str | None] = (None, None),
) -> tuple[Ticket, Ticket]:
    """Pairs two seekers at time t; returns (seat to move first, the other). A match with a
    per-move deadline starts at the join; any other once seat 0 polls again (at t)."""
    a = await store.matches.seek(game, "1", None, t, None, control, players[0], contacts[0])
    b = await store.matches.seek(game, "1", None, t, None, control, players[1], contacts[1])
    assert (a.match, a.seat, b.seat) == (b.match, 0, 1)
    if control is None or control.kind != "deadline":
        await start(store, a, at=t)
    _, events = await store.matches.poll(a.match, None, 0, t)
    return (a, b) if parse(events)[0]["first"] == 0 else (b, a)

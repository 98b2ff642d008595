"""RelayClient and Timing: what is retried, for how long, and what is refused at once."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdk import (
    ConnectionLostError,
    Ended,
    Moved,
    Passed,
    ProtocolError,
    RelayClient,
    RelayRefusedError,
    Started,
    Ticket,
    Timing,
)
from sdk.events import parse_event
from sdk.testing import FAST, local_relay
from tests.support.relay_process import RelayProcess


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    """Returns an HTTP client session, closed after the test."""
    async with aiohttp.ClientSession() as session:
        yield session


@given(
    attempt=st.integers(0, 200),
    seed=st.integers(0, 2**32),
    retry_after=st.none() | st.floats(0, 120),
)
def test_backoff_is_full_jitter_below_the_cap_and_honours_retry_after(
    attempt: int, seed: int, retry_after: float | None
) -> None:
    timing = Timing(backoff_base=0.2, backoff_cap=5.0)
    delay = timing.backoff(attempt, random.Random(seed), retry_after)
    ceiling = min(5.0, 0.2 * 2**attempt)
    if retry_after is None:
        assert 0 <= delay <= ceiling
    else:
        assert retry_after <= delay <= max(ceiling, retry_after + 0.2)


def test_backoff_grows_on_average_until_the_cap() -> None:
    timing = Timing(backoff_base=0.1, backoff_cap=1.0)
    rng = random.Random(7)
    means = [sum(timing.backoff(a, rng) for _ in range(2000)) / 2000 for a in range(6)]
    assert means[0] < means[1] < means[2] < means[3] < means[4]
    assert means[5] == pytest.approx(0.5, abs=0.05)  # capped: uniform over [0, 1]


@pytest.mark.parametrize(
    ("field", "value"),
    [("poll_wait", 0), ("poll_wait", 1.5), ("request_timeout", 0), ("give_up", -1.0)],
)
def test_timing_refuses_nonsense(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        Timing(**{field: value})  # type: ignore[arg-type]


def test_ticket_repr_never_shows_the_token() -> None:
    ticket = Ticket("m1", 0, "s3cr3t")
    assert "s3cr3t" not in repr(ticket)
    assert repr(ticket) == "Ticket(match='m1', seat=0)"


def test_events_parse_into_typed_records() -> None:
    assert parse_event({"seq": 1, "type": "started", "first": 1}) == Started(1, 1)
    assert parse_event({"seq": 2, "type": "move", "seat": 1, "move": "", "end": True}) == Moved(
        2, 1, "", True
    )
    assert parse_event({"seq": 3, "type": "pass", "seat": 0}) == Passed(3, 0)
    assert parse_event({"seq": 4, "type": "ended", "reason": "agreed", "seat": 0}) == Ended(
        4, "agreed", 0
    )


@pytest.mark.parametrize(
    "raw",
    [
        {"seq": 1, "type": "kick", "seat": 0},
        {"seq": 0, "type": "pass", "seat": 0},
        {"seq": 2, "type": "move", "seat": 2, "move": "x", "end": False},
        {"seq": 2, "type": "move", "seat": 0, "move": 5, "end": False},
        {"seq": 2, "type": "ended", "reason": "bored", "seat": 0},
        {"seq": "2", "type": "pass", "seat": 0},
        {"type": "pass", "seat": 0},
        [1, 2],
    ],
)
def test_events_outside_the_protocol_are_refused(raw: object) -> None:
    with pytest.raises(ProtocolError, match="protocol v1 does not define"):
        parse_event(raw)


async def test_a_4xx_is_refused_at_once_without_retrying(
    relay: str, session: aiohttp.ClientSession
) -> None:
    client = RelayClient(session, relay, FAST)
    ticket = await client.seek("refusals")
    with pytest.raises(RelayRefusedError) as refused:
        await client.move(Ticket(ticket.match, 0, "not-the-token"), 1, "x")
    assert (refused.value.status, refused.value.code) == (403, "auth/bad_token")
    with pytest.raises(RelayRefusedError, match="match/not_started"):
        await client.move(ticket, 0, "x")
    assert client.retries == 0


async def test_429_retry_after_is_honoured_then_the_poll_succeeds(
    session: aiohttp.ClientSession,
) -> None:
    async with local_relay(hold=1.0) as url:
        client = RelayClient(session, url, Timing(poll_wait=1, backoff_base=0.01))
        seat = await client.seek("limits", room="polls")
        await RelayClient(session, url, FAST).seek("limits", room="polls")
        assert len(await client.events(seat, 0)) == 1
        # Two polls held at once use up the seat's allowance (--polls-per-seat 2)...
        held = [asyncio.create_task(client.events(seat, 1, 1)) for _ in range(2)]
        await asyncio.sleep(0.2)
        began = time.monotonic()
        # ...so a third is answered 429 with Retry-After: 1, waits, and gets through.
        assert await client.events(seat, 1, 1) == []
        assert time.monotonic() - began >= 1.0
        assert client.retries == 1
        assert await asyncio.gather(*held) == [[], []]


async def test_retry_after_beyond_the_give_up_time_fails_fast(
    session: aiohttp.ClientSession,
) -> None:
    with RelayProcess("--seeks-per-minute", "1") as relay:
        client = RelayClient(session, relay.url, Timing(give_up=5.0))
        await client.seek("limits")
        began = time.monotonic()
        with pytest.raises(ConnectionLostError, match="429 limit/seeks"):
            await client.seek("limits")
        assert time.monotonic() - began < 1.0  # it does not hammer, nor sleep past give-up
        assert client.retries == 0


async def test_spectators_read_the_log_without_a_token(
    relay: str, session: aiohttp.ClientSession
) -> None:
    client = RelayClient(session, relay, FAST)
    first = await client.seek("spectate", room="r")
    second = await client.seek("spectate", room="r")
    # Seat 0 polls again, as a live client does: that starts the paired match.
    assert [type(event) for event in await client.events(first, 0)] == [Started]
    [started] = await client.events(first.match, 0)
    assert isinstance(started, Started)
    mover = first if started.first == first.seat else second
    assert await client.move(mover, 1, "é\n𝄞") == 2
    assert await client.move(mover, 1, "é\n𝄞") == 2  # the same post again: applied once
    assert await client.events(first.match, 1) == [Moved(2, mover.seat, "é\n𝄞", False)]

"""Endings a host meets against a bare protocol client: unconfirmed ends, refusals, races."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest

from sdk import Outcome, Reason, RelayClient, Result, Started, State, Ticket
from sdk._endings import PARTNER_RESIGNED, PARTNER_UNCONFIRMED
from sdk.testing import FAST, local_relay
from tests.sdk.scripted import RecordingHost, Side, factory, moves_in, relay_log, until


@pytest.fixture
async def client(relay: str) -> AsyncIterator[RelayClient]:
    """Returns a bare protocol client of the relay, to play the partner by hand."""
    async with aiohttp.ClientSession() as session:
        yield RelayClient(session, relay, FAST)


async def seat_against(
    relay: str, client: RelayClient, side: Side, room: str
) -> tuple[RecordingHost, asyncio.Task[Outcome], Ticket, Started]:
    """Seats a recording host and a bare client in `room`; returns them once play started."""
    seated = asyncio.Event()
    make = factory(side, side)
    host = RecordingHost(
        relay, "bare", make, room=room, timing=FAST, on_ticket=lambda _: seated.set()
    )
    task: asyncio.Task[Outcome] = asyncio.create_task(host.play())
    await seated.wait()
    partner = await client.seek("bare", room=room)
    [started] = await client.events(partner, 0)
    assert isinstance(started, Started)
    return host, task, partner, started


async def test_a_move_refused_as_the_partner_resigned_meanwhile_ends_resigned(
    relay: str, client: RelayClient
) -> None:
    async with asyncio.timeout(10):
        host, task, partner, started = await seat_against(relay, client, Side(), "race")
        if started.first == partner.seat:
            await client.move(partner, 1, "p1")
        await until(lambda: host.state is State.PLAYING_TO_MOVE)
        await client.resign(partner)
        host.move("too late")  # the host has not heard of the resignation yet
        outcome = await task
    assert outcome == host.outcome
    assert (outcome.result, outcome.reason) == (Result.WON, Reason.RESIGNED)
    assert host.calls[-1] == ("show_dialog", PARTNER_RESIGNED, State.GAME_ENDED)
    assert "too late" not in moves_in(await relay_log(relay, partner.match))


async def test_an_end_the_partner_never_confirms_ends_unconfirmed() -> None:
    async with local_relay(hold=0.5, grace=2.0) as url, aiohttp.ClientSession() as session:
        client = RelayClient(session, url, FAST)
        me = Side(["m1!"], result=Result.WON)
        async with asyncio.timeout(10):
            host, task, partner, started = await seat_against(url, client, me, "silent")
            if started.first == partner.seat:
                await client.move(partner, 1, "p1")
            outcome = await task  # the partner stops polling: the relay waits its grace
    assert (outcome.result, outcome.reason, outcome.by) == (
        Result.WON,
        Reason.UNCONFIRMED,
        partner.seat,
    )
    assert host.calls[-2:] == [
        ("result", "", State.GAME_ENDED),
        ("show_dialog", PARTNER_UNCONFIRMED, State.GAME_ENDED),
    ]


async def test_a_move_the_relay_refuses_ends_with_an_error_and_frees_the_partner() -> None:
    async with local_relay(max_move=8) as url, aiohttp.ClientSession() as session:
        client = RelayClient(session, url, FAST)
        async with asyncio.timeout(10):
            host, task, partner, started = await seat_against(
                url, client, Side(["far too long a move"]), "long"
            )
            if started.first == partner.seat:
                await client.move(partner, 1, "p1")
            outcome = await task
        log = await client.events(partner.match, 0)
    assert (outcome.reason, outcome.result) == (Reason.ERROR, Result.UNKNOWN)
    assert "413 move/too_long" in outcome.message
    assert host.calls[-1] == ("show_dialog", outcome.message, State.GAME_ENDED)
    assert moves_in(log)[-1] == "ended:resigned"  # the partner is not left waiting

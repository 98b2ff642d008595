"""What a UI does to a host from outside the game: cancel, resign, from any thread."""

from __future__ import annotations

import asyncio
import threading

import aiohttp
import pytest

from sdk import (
    HostStateError,
    Reason,
    RelayClient,
    RelayHost,
    RelayRefusedError,
    Result,
    State,
)
from sdk._endings import PARTNER_RESIGNED
from sdk.testing import FAST
from tests.sdk.scripted import (
    RecordingHost,
    Side,
    factory,
    moves_in,
    relay_log,
    ticket_of,
    until,
)


async def test_cancel_while_listening_withdraws_the_seek(relay: str) -> None:
    seated = asyncio.Event()
    make = factory(Side(), Side())
    host = RecordingHost(relay, "lonely", make, timing=FAST, on_ticket=lambda _: seated.set())
    async with asyncio.timeout(10):
        task = asyncio.create_task(host.play())
        await seated.wait()
        await asyncio.sleep(0.1)  # the poll for a partner is held now
        assert host.state is State.LISTENING
        host.cancel()
        outcome = await task
    assert (outcome.result, outcome.reason) == (Result.UNKNOWN, Reason.CANCELLED)
    assert host.states == [State.LISTENING, State.NOT_CONNECTED]
    assert host.game is None and host.calls == []
    async with aiohttp.ClientSession() as session:
        with pytest.raises(RelayRefusedError, match="match/expired"):
            await RelayClient(session, relay, FAST).events(ticket_of(host).match, 0)


async def test_cancel_from_another_thread_is_honoured(relay: str) -> None:
    seated = asyncio.Event()
    make = factory(Side(), Side())
    host = RelayHost(relay, "lonely", make, timing=FAST, on_ticket=lambda _: seated.set())
    async with asyncio.timeout(10):
        task = asyncio.create_task(host.play())
        await seated.wait()
        thread = threading.Thread(target=host.cancel)
        thread.start()
        outcome = await task
        thread.join()
    assert outcome.reason is Reason.CANCELLED


async def test_cancel_before_play_never_seeks(relay: str) -> None:
    host = RelayHost(relay, "lonely", factory(Side(), Side()), timing=FAST)
    host.cancel()
    outcome = await host.play()
    assert (outcome.reason, outcome.match, host.ticket) == (Reason.CANCELLED, None, None)


async def test_resign_from_a_ui_thread_on_the_partners_turn(relay: str) -> None:
    room = "ui-resign"
    make = factory(Side(["a1"]), Side())  # the second side never moves: its player thinks
    hosts = [RecordingHost(relay, "ui", make, room=room, timing=FAST) for _ in "ab"]
    async with asyncio.timeout(10):
        tasks = [asyncio.create_task(host.play()) for host in hosts]
        await until(lambda: all(h.game for h in hosts))
        waiting, thinking = sorted(hosts, key=lambda h: not (h.game and h.game.first_move))
        await until(lambda: thinking.state is State.PLAYING_TO_MOVE)
        await asyncio.to_thread(waiting.resign)
        assert waiting.state is State.GAME_ENDED
        waiting.resign()  # twice is harmless
        outcomes = await asyncio.gather(*tasks)
    by_host = dict(zip(hosts, outcomes, strict=True))
    assert (by_host[waiting].result, by_host[waiting].reason) == (Result.LOST, Reason.RESIGNED)
    assert by_host[thinking].result is Result.WON
    assert thinking.calls[-2:] == [
        ("disable", "", State.GAME_ENDED),  # it was enabled: the end disables it
        ("show_dialog", PARTNER_RESIGNED, State.GAME_ENDED),
    ]
    waiting.resign()  # once it is over, resigning or cancelling does nothing
    thinking.cancel()
    assert (waiting.outcome, thinking.outcome) == (by_host[waiting], by_host[thinking])
    with pytest.raises(HostStateError, match="plays one match"):
        await thinking.play()
    assert moves_in(await relay_log(relay, by_host[waiting].match or "")) == [
        "a1",
        "ended:resigned",
    ]


async def test_a_seek_the_relay_refuses_ends_with_an_error_dialog(relay: str) -> None:
    make = factory(Side(), Side())
    hosts = [RecordingHost(relay, "full", make, room="busy", timing=FAST) for _ in "ab"]
    dialogs: list[str] = []
    third = RelayHost(relay, "full", make, room="busy", timing=FAST, dialog=dialogs.append)
    async with asyncio.timeout(10):
        tasks = [asyncio.create_task(host.play()) for host in hosts]
        await until(lambda: all(host.game for host in hosts))
        outcome = await third.play()
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks)
    assert (outcome.reason, outcome.is_finished) == (Reason.ERROR, False)
    assert third.state is State.NOT_CONNECTED
    assert dialogs == [outcome.message]
    assert "room/full" in outcome.message

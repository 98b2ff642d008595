"""The table in the Python SDK: names, chat, presence, draw offers, takebacks and claims,
through RelayHost and RelayClient against a real relay in the test's event loop."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from sdk import Game, Offer, Reason, RelayHost, Result, State, Undone
from sdk.client import RelayClient
from sdk.errors import HostStateError, RelayRefusedError
from sdk.events import parse_event
from sdk.game import Played
from sdk.testing import FAST, local_relay
from tests.sdk.table_seats import Counter, finish, seated, until


class Plain(Counter):
    """A Counter that cannot take moves back (it keeps Game.undo)."""

    undo = Game.undo

    def consider_offer(self, offer: Offer) -> bool | None:
        return Game.consider_offer(self, offer)


async def test_names_and_chat_reach_both_sides(relay: str) -> None:
    x, y = await seated(relay, "names")
    table = await x.told(lambda t: t.names[y.host.ticket.seat] is not None)  # type: ignore[union-attr]
    assert sorted(name or "" for name in table.names) == ["Ann", "Bob <b>"]
    assert await y.host.say("hello <script>") == 1
    await x.told(lambda t: any(line.text == "hello <script>" for line in t.chat))
    assert [line.text for line in x.host.chat] == ["hello <script>"]
    assert await x.host.say("hi") == 2
    await y.told(lambda t: any(line.text == "hi" for line in t.chat))
    assert [line.n for line in y.host.chat] == [1, 2]
    await finish(x, y)


async def test_a_draw_offered_and_accepted_by_the_game_ends_drawn(relay: str) -> None:
    x, y = await seated(relay, "draw")
    y.game.draws = True
    await x.game.enabled.wait()
    await x.host.offer_draw()
    outcomes = await asyncio.wait_for(asyncio.gather(x.task, y.task), 10)
    assert {o.reason for o in outcomes} == {Reason.DRAWN}
    assert {o.result for o in outcomes} == {Result.DRAWN}


async def test_a_draw_declined_by_the_game_plays_on(relay: str) -> None:
    x, y = await seated(relay, "declined")
    y.game.draws = False
    await x.game.enabled.wait()
    await x.host.offer_draw()
    table = await x.told(lambda t: t.offer is not None and t.offer.state == "declined")
    assert table.offer is not None and table.offer.by == x.host.ticket.seat  # type: ignore[union-attr]
    x.game.play()
    await y.game.enabled.wait()
    assert y.game.numbers == [1]
    await finish(x, y)


async def test_a_takeback_undoes_on_both_sides_and_the_asker_moves_again(relay: str) -> None:
    x, y = await seated(relay, "takeback")
    await x.game.enabled.wait()
    x.game.play()
    await y.game.enabled.wait()
    y.game.play()
    await x.game.enabled.wait()
    await x.host.ask_takeback()
    await until(lambda: x.game.undone and y.game.undone)
    assert x.game.undone == y.game.undone == [2]
    assert x.game.numbers == y.game.numbers == []
    await x.game.enabled.wait()
    assert x.host.state is State.PLAYING_TO_MOVE and y.host.state is State.PLAYING_WAIT_MOVE
    x.game.play()
    await y.game.enabled.wait()
    assert y.game.numbers == [1]
    await finish(x, y)


async def test_a_game_that_cannot_undo_declines_takebacks_and_asks_none(relay: str) -> None:
    x, y = await seated(relay, "plain", first=Counter, second=Plain)
    seats = {type(x.game): x, type(y.game): y}
    counter, plain = seats[Counter], seats[Plain]
    with pytest.raises(HostStateError, match="cannot take moves back"):
        await plain.host.ask_takeback()
    mover = x
    await mover.game.enabled.wait()
    mover.game.play()
    other = y
    await other.game.enabled.wait()
    other.game.play()
    await mover.game.enabled.wait()
    if mover is counter:
        await counter.host.ask_takeback()
        table = await counter.told(lambda t: t.offer is not None and t.offer.state == "declined")
        assert table.offer is not None and table.offer.kind == "takeback"
    assert plain.game.undone == [] and counter.game.undone == []
    await finish(x, y)


async def test_a_staller_is_claimed_against() -> None:
    async with local_relay(claim_after=0.5) as url:
        x, y = await seated(url, "stall")
        await x.game.enabled.wait()
        with pytest.raises(RelayRefusedError) as early:
            await x.host.claim()
        assert early.value.code == "claim/not_stalled"
        await asyncio.sleep(0.7)
        await y.host.claim()
        outcomes = await asyncio.wait_for(asyncio.gather(x.task, y.task), 10)
        assert [o.reason for o in outcomes] == [Reason.STALLED, Reason.STALLED]
        assert (outcomes[0].result, outcomes[1].result) == (Result.LOST, Result.WON)


async def test_presence_shows_a_seat_whose_host_stopped_and_its_return(relay: str) -> None:
    x, y = await seated(relay, "presence")
    ticket = y.host.ticket
    assert ticket is not None
    y.task.cancel()  # the host's process stops: its held poll's connection closes
    await asyncio.wait([y.task])
    away = await x.told(lambda t: not t.presence[ticket.seat].here, timeout=10)
    assert away.presence[ticket.seat].abandon_in is not None
    back = RelayHost.resume(relay, ticket, Counter, timing=FAST, dialog=lambda text: None)
    task = asyncio.ensure_future(back.play())
    await x.told(lambda t: t.version > away.version and t.presence[ticket.seat].here)
    back.resign()
    await asyncio.wait_for(asyncio.gather(task, x.task), 10)


async def test_resuming_after_a_takeback_restores_without_the_moves_taken_back(
    relay: str,
) -> None:
    x, y = await seated(relay, "resume")
    await x.game.enabled.wait()
    x.game.play()
    await y.game.enabled.wait()
    y.game.play()
    await x.game.enabled.wait()
    x.game.play()
    await y.game.enabled.wait()
    await y.host.ask_takeback()
    await until(lambda: x.game.undone)
    restored: list[Sequence[Played]] = []

    class Restoring(Counter):
        def restore(self, history: Sequence[Played]) -> None:
            restored.append(history)
            self.numbers = [int(p.move or 0) for p in history]

    ticket = x.host.ticket
    assert ticket is not None
    x.task.cancel()
    await asyncio.wait([x.task])
    again = RelayHost.resume(relay, ticket, Restoring, timing=FAST, dialog=lambda text: None)
    task = asyncio.ensure_future(again.play())
    await until(lambda: restored)
    assert [p.move for p in restored[0]] == ["1"]
    again.resign()
    await asyncio.wait_for(asyncio.gather(task, y.task), 10)


async def test_the_client_reads_the_table_and_the_undo_event(relay: str) -> None:
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, FAST)
        a = await client.seek("count", room="client", name="Ann")
        b = await client.seek("count", room="client")
        events, table = await client.read(a, 0, 0, table=0)
        assert table is not None and table.names == ("Ann", None)
        first = events[0]
        mover = a if getattr(first, "first", None) == a.seat else b
        await client.move(mover, 1, "1")
        await client.offer(mover, "takeback", 2)
        other = b if mover is a else a
        assert await client.answer(other, True, 2) == 3
        assert (await client.events(a, 2))[0] == Undone(3, mover.seat, 1)
        assert parse_event({"seq": 3, "type": "undo", "seat": 1, "count": 2, "left": [1, 2]}) == (
            Undone(3, 1, 2)
        )
        same, newer = await client.read(a, 3, 0, table=table.version)
        assert same == [] and newer is not None and newer.offer is not None
        assert newer.offer.state == "accepted"


SDK_DOC = (Path(__file__).resolve().parents[2] / "docs" / "sdk.md").read_text()


async def test_the_table_example_of_the_sdk_doc_runs(relay: str, capsys: object) -> None:
    found = re.search(r"<!-- example: table -->\n```python\n(.*?)```", SDK_DOC, re.S)
    assert found is not None, "docs/sdk.md has no table example"
    example: dict[str, Any] = {}
    exec(compile(found.group(1), "table-example", "exec"), example)
    tally = example["Tally"]

    class Gated(tally):  # type: ignore[misc, valid-type]
        """The example's game, moving only when the test says so."""

        def enable(self) -> None:
            pass

        def step(self) -> None:
            tally.enable(self)

    room = "table-doc-" + secrets.token_hex(4)
    other = RelayHost(relay, "tally", Gated, room=room, name="Bob", timing=FAST,
                      dialog=lambda text: None)  # fmt: skip
    playing = asyncio.ensure_future(example["play_and_chat"](relay, room, "Ann"))
    match = asyncio.ensure_future(other.play())
    await until(lambda: other.state is State.PLAYING_TO_MOVE)
    game = other.game
    assert isinstance(game, Gated)
    await other.say("good luck")
    start = len(game.numbers)
    game.step()
    await until(lambda: other.state is State.PLAYING_TO_MOVE and len(game.numbers) == start + 2)
    before = list(game.numbers)
    await other.ask_takeback()  # the example takes moves back
    await until(lambda: len(game.numbers) == len(before) - 2)
    await until(lambda: other.state is State.PLAYING_TO_MOVE)
    await other.offer_draw()  # the example, with fewer than 5 numbers, takes the draw
    await asyncio.wait_for(asyncio.gather(playing, match), 15)
    assert other.outcome is not None and other.outcome.reason is Reason.DRAWN
    printed = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "Bob: good luck" in printed and "Reason.DRAWN" in printed


async def test_a_record_holds_names_the_chat_for_a_seat_and_the_moves_as_played(
    relay: str,
) -> None:
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, FAST)
        a = await client.seek("count", room="record", name="Ann")
        b = await client.seek("count", room="record", name="Bob")
        first = (await client.events(a, 0))[0]
        x, y = (a, b) if getattr(first, "first", None) == a.seat else (b, a)
        await client.move(x, 1, "1")
        await client.move(y, 2, "2")
        await client.offer(x, "takeback", 3)
        await client.answer(y, True, 3)
        await client.move(x, 4, "one")
        await client.say(y, "<i>gg</i>")
        await client.resign(y)
        public = await client.record(a.match)
        own = await client.record(a)
        assert public.names == own.names == ("Ann", "Bob")
        assert public.chat == () and [line.text for line in own.chat] == ["<i>gg</i>"]
        assert [move.move for move in own.moves] == ["one"]
        assert isinstance(own.events[3], Undone) and own.result == ("resigned", y.seat)

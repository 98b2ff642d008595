"""Takeback races through RelayHost against a real relay: a takeback asked while this side's
own move is held for the reply, and a move made just as the partner's acceptance arrives. Each
is read from the log: the match goes on, the games agree with the log, and nobody resigns."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from sdk import Offer, State, Undone
from sdk.events import Event
from sdk.host.machine import VOIDED_MOVE
from sdk.testing import local_relay
from tests.sdk.table_seats import Counter, Seated, finish, seated, until


class Answering(Counter):
    """A Counter whose player answers offers (the game leaves them to the UI)."""

    def consider_offer(self, offer: Offer) -> bool | None:
        return None


async def test_a_takeback_asked_while_the_own_move_is_held_is_asked_after_it() -> None:
    # The relay holds X's move post until Y replies (up to the hold): X asks to take the move
    # back meanwhile. The offer is at the position after X's move, not refused as stale.
    async with local_relay(hold=3.0) as url:
        x, y = await seated(url, "held-takeback")
        await x.game.enabled.wait()
        x.game.play()
        await until(lambda: x.host.state is State.PLAYING_WAIT_MOVE)
        table = await x.host.ask_takeback()
        assert table.offer is not None and (table.offer.at, table.offer.count) == (2, 1)
        await until(lambda: x.game.undone and y.game.undone)  # y's game accepts
        assert x.game.numbers == y.game.numbers == []
        await until(lambda: x.host.state is State.PLAYING_TO_MOVE)
        x.game.play()
        await y.game.enabled.wait()
        assert y.game.numbers == [1] and x.host.outcome is None and y.host.outcome is None
        assert x.dialogs == y.dialogs == []
        await finish(x, y)


async def test_an_offer_made_in_the_same_breath_as_the_own_move_follows_it() -> None:
    # X plays and, before its host has even posted the move, asks to take it back, then
    # offers a draw after a move of its own held for the reply: each is made at the position
    # after X's move (not refused as stale, not made before the move and lapsing).
    async with local_relay(hold=3.0) as url:
        x, y = await seated(url, "same-breath")
        await x.game.enabled.wait()
        x.game.play()
        assert x.host.state is State.WAITING_SERVER_RESPONSE  # the move is not posted yet
        table = await x.host.ask_takeback()
        assert table.offer is not None and (table.offer.at, table.offer.count) == (2, 1)
        await until(lambda: x.game.undone == y.game.undone == [1])  # y's game accepts
        await until(lambda: x.host.state is State.PLAYING_TO_MOVE)
        y.game.draws = False
        x.game.play()
        table = await x.host.offer_draw()
        assert table.offer is not None and (table.offer.kind, table.offer.at) == ("draw", 4)
        await y.game.enabled.wait()
        assert x.host.outcome is None and y.host.outcome is None
        assert x.dialogs == y.dialogs == []
        await finish(x, y)


def move_as_undo_arrives(side: Seated) -> None:
    """Makes side's game move the moment its host's poll queues an `undo`, before the host
    hands it to the game: a player who moves just as the partner accepts the takeback."""
    feed = side.host._driver.feed
    put = feed.put

    def put_then_move(events: Iterable[Event]) -> None:
        events = list(events)
        put(events)
        if any(isinstance(event, Undone) for event in events):
            side.game.play()

    feed.put = put_then_move  # type: ignore[method-assign]


async def test_a_move_made_as_the_takeback_is_accepted_is_voided_and_told() -> None:
    async with local_relay() as url:
        x, y = await seated(url, "undo-race", Answering)
        await x.game.enabled.wait()
        x.game.play()
        await y.game.enabled.wait()
        y.game.play()
        await x.game.enabled.wait()
        await x.host.ask_takeback()
        await until(lambda: y.host.table is not None and y.host.table.offer is not None)
        move_as_undo_arrives(x)
        await y.host.answer_offer(True)
        await until(lambda: y.game.undone and x.game.undone)
        await until(lambda: x.host.state is State.PLAYING_TO_MOVE)
        await asyncio.sleep(0.3)  # the voided move would be refused meanwhile
        # X's move 3 (made on the board before the takeback) goes back with moves 1 and 2.
        assert x.game.numbers == y.game.numbers == []
        assert x.game.undone == [3] and y.game.undone == [2]
        assert x.dialogs == [VOIDED_MOVE.format(move="3")]
        assert VOIDED_MOVE.format(move="3") == (
            "Your move 3 was not played: the takeback was accepted just before it."
        )
        assert x.host.outcome is None and y.host.outcome is None
        x.game.play()
        await y.game.enabled.wait()
        assert y.game.numbers == [1]
        await finish(x, y)

"""Takeback races through RelayHost against a real relay: a takeback asked while this side's
own move is held for the reply, and a move made just as the partner's acceptance arrives. Each
is read from the log: the match goes on, the games agree with the log, and nobody resigns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from sdk import Game, GameHost, Offer, RelayHost, State, Undone
from sdk.events import Event
from sdk.host.machine import VOIDED_MOVE
from sdk.testing import FAST, local_relay


class Counter(Game):
    """Counts up, one number a move (when the test says); takes moves back; accepts takebacks."""

    def __init__(self, host: GameHost, first_move: bool) -> None:
        super().__init__(host, first_move)
        self.numbers: list[int] = []
        self.undone: list[int] = []
        self.enabled = asyncio.Event()

    def enable(self) -> None:
        self.enabled.set()

    def disable(self) -> None:
        self.enabled.clear()

    def play(self) -> None:
        """Moves the next number."""
        self.numbers.append(len(self.numbers) + 1)
        self.host.move(str(self.numbers[-1]))

    def receive_move(self, move: str) -> State:
        self.numbers.append(int(move))
        return State.PLAYING_TO_MOVE

    def undo(self, count: int) -> None:
        self.undone.append(count)
        del self.numbers[len(self.numbers) - count :]

    def consider_offer(self, offer: Offer) -> bool | None:
        return True


class Answering(Counter):
    """A Counter whose player answers offers (the game leaves them to the UI)."""

    def consider_offer(self, offer: Offer) -> bool | None:
        return None


class Seated:
    """A host playing in a task, and the dialogs it showed."""

    def __init__(self, url: str, factory: type[Counter], room: str) -> None:
        self.dialogs: list[str] = []
        self.host = RelayHost(
            url, "count", factory, room=room, timing=FAST, dialog=self.dialogs.append
        )
        self.task = asyncio.ensure_future(self.host.play())

    @property
    def game(self) -> Counter:
        game = self.host.game
        assert isinstance(game, Counter)
        return game


async def until(check: Callable[[], object], timeout: float = 8.0) -> None:
    """Returns once check() is true (looked at every 20 ms); fails after timeout seconds."""
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"not true after {timeout} s")


async def seated(url: str, room: str, factory: type[Counter] = Counter) -> tuple[Seated, Seated]:
    """Seats two hosts in a room; returns (the side to move, the other), both started."""
    a, b = Seated(url, factory, room), Seated(url, factory, room)
    await until(lambda: a.host.game is not None and b.host.game is not None, 10)
    return (a, b) if a.game.first_move else (b, a)


async def finish(*sides: Seated) -> None:
    """Resigns the sides still playing and waits for both to end."""
    for side in sides:
        if not side.task.done():
            side.host.resign()
    await asyncio.wait_for(asyncio.gather(*(side.task for side in sides)), 10)


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

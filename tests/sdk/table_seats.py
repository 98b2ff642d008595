"""Two RelayHosts seated at a table in the test's event loop, each with a Counter game: what
the SDK's table tests (test_table.py, test_takeback_race.py) play with."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sdk import Game, GameHost, Offer, RelayHost, State, Table
from sdk.testing import FAST

__all__ = ["Counter", "Seated", "finish", "seated", "until"]


class Counter(Game):
    """Counts up, one number a move; takes moves back; answers offers as told."""

    def __init__(self, host: GameHost, first_move: bool) -> None:
        super().__init__(host, first_move)
        self.numbers: list[int] = []
        self.undone: list[int] = []
        self.enabled = asyncio.Event()
        self.draws: bool | None = None
        self.takebacks: bool | None = True

    def enable(self) -> None:
        self.enabled.set()

    def disable(self) -> None:
        self.enabled.clear()

    def play(self) -> None:
        """Moves the next number (the test decides when)."""
        self.numbers.append(len(self.numbers) + 1)
        self.host.move(str(self.numbers[-1]))

    def receive_move(self, move: str) -> State:
        self.numbers.append(int(move))
        return State.PLAYING_TO_MOVE

    def undo(self, count: int) -> None:
        self.undone.append(count)
        del self.numbers[len(self.numbers) - count :]

    def consider_offer(self, offer: Offer) -> bool | None:
        return self.draws if offer.kind == "draw" else self.takebacks


class Seated:
    """A host playing in a task, and what it was told: its tables and its dialogs."""

    def __init__(self, url: str, factory: type[Counter], room: str, name: str) -> None:
        self.tables: list[Table] = []
        self.dialogs: list[str] = []
        self.host = RelayHost(
            url, "count", factory, room=room, name=name, timing=FAST,
            on_table=self.tables.append, dialog=self.dialogs.append,
        )  # fmt: skip
        self.task = asyncio.ensure_future(self.host.play())

    @property
    def game(self) -> Counter:
        game = self.host.game
        assert isinstance(game, Counter)
        return game

    async def told(self, check: object, timeout: float = 8.0) -> Table:
        """Returns the first table told (now or later) for which check(table) holds."""
        assert callable(check)
        async with asyncio.timeout(timeout):
            while True:
                for table in self.tables:
                    if check(table):
                        return table
                await asyncio.sleep(0.05)


async def until(check: Callable[[], object], timeout: float = 8.0) -> None:
    """Returns once check() is true (looked at every 50 ms); fails after timeout seconds."""
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not true after {timeout} s")


async def seated(
    url: str, room: str, first: type[Counter] = Counter, second: type[Counter] | None = None
) -> tuple[Seated, Seated]:
    """Seats two hosts in a room, Ann's game a `first` and Bob's a `second` (by default a
    `first` too); returns (the side to move, the other), both started."""
    a = Seated(url, first, room, "Ann")
    b = Seated(url, first if second is None else second, room, "Bob <b>")
    await until(lambda: a.host.game is not None and b.host.game is not None, 10)
    return (a, b) if a.game.first_move else (b, a)


async def finish(*sides: Seated) -> None:
    """Resigns the sides still playing and waits for both to end."""
    for side in sides:
        if not side.task.done():
            side.host.resign()
    await asyncio.wait_for(asyncio.gather(*(side.task for side in sides)), 10)

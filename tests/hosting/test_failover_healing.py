"""The SDK heals when the relay's log falls behind: a Redis failover lost acknowledged events.

A relay on a real Redis; `lose_tail` cuts a live match's log back as a replica promoted
after its primary died would hold it. Both hosts must carry on as if nothing happened: each
event handed to each game once, in order, and the moves the log lost posted again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest
from aiohttp import web

from relay import Config, StoreSettings, create_app
from relay.store.redis.store import RedisStore
from sdk import Game, GameHost, Moved, Reason, RelayHost, State
from sdk.testing import FAST
from tests.sdk.scripted import moves_in, relay_log
from tests.support.lost_writes import lose_tail
from tests.support.redis_server import RedisServer

pytestmark = pytest.mark.timeout(60)

_prefixes = itertools.count()


@dataclass(frozen=True)
class RedisRelay:
    """A relay in this event loop on a Redis of its own."""

    url: str
    redis_url: str
    prefix: str


@pytest.fixture
async def redis_relay(redis_server: RedisServer) -> AsyncIterator[RedisRelay]:
    """Returns a relay (hold 1 s) on the test's redis-server, under a key prefix of its own."""
    settings = StoreSettings(grace=30.0)
    prefix = f"heal{next(_prefixes)}:"
    store = RedisStore.from_url(redis_server.url, settings, prefix=prefix)
    config = Config(
        host="127.0.0.1",
        port=0,
        hold=1.0,
        store=settings,
        seeks_per_minute=1_000_000,
        requests_per_second=1_000_000,
        pages=False,
        access_log=False,
    )
    runner = web.AppRunner(create_app(config, store), access_log=None, shutdown_timeout=2)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        yield RedisRelay(f"http://{host}:{port}", redis_server.url, prefix)
    finally:
        await runner.cleanup()


class Puppet(Game):
    """Moves when the test says; records the partner's moves it is handed."""

    def __init__(self, host: GameHost, first_move: bool, changed: asyncio.Event) -> None:
        super().__init__(host, first_move)
        self.received: list[str] = []
        self.enabled = False
        self.changed = changed

    def enable(self) -> None:
        self.enabled = True
        self.changed.set()

    def disable(self) -> None:
        self.enabled = False

    def receive_move(self, move: str) -> State:
        self.received.append(move)
        self.changed.set()
        return State.GAME_ENDED if move.endswith("!") else State.PLAYING_TO_MOVE


class Table:
    """Two hosts playing through the relay, moved by the test."""

    def __init__(self, relay: RedisRelay) -> None:
        self.relay = relay
        self.changed = asyncio.Event()
        self.dialogs: list[str] = []

        def make(host: GameHost, first_move: bool) -> Game:
            return Puppet(host, first_move, self.changed)

        self.hosts = [
            RelayHost(
                relay.url,
                "heal",
                make,
                room=f"heal-{id(self)}",
                timing=FAST,
                dialog=self.dialogs.append,
                on_state=lambda _: self.changed.set(),
            )
            for _ in "ab"
        ]
        self.tasks = [asyncio.create_task(host.play()) for host in self.hosts]

    async def until(self, what: str, test: Callable[[], bool]) -> None:
        """Returns once test() holds (`what` it waits for), checked at each change of a host."""
        while not test():
            self.changed.clear()
            await self.changed.wait()

    def games(self) -> tuple[Puppet, Puppet]:
        games = [host.game for host in self.hosts]
        assert all(isinstance(game, Puppet) for game in games)
        first, second = sorted(games, key=lambda game: not game.first_move)  # type: ignore[union-attr]
        assert isinstance(first, Puppet) and isinstance(second, Puppet)
        return first, second

    async def started(self) -> None:
        await self.until("both games", lambda: all(h.game is not None for h in self.hosts))

    async def play(self, game: Puppet, move: str) -> None:
        """Makes `game` play `move` once it has the turn."""
        await self.until(f"the turn for {move}", lambda: game.enabled)
        game.host.move(move, end_game=move.endswith("!"))

    async def delivered(self, count: int) -> None:
        """Returns once the games were handed `count` moves in all."""
        first, second = self.games()
        await self.until(f"{count} moves", lambda: len(first.received + second.received) >= count)

    @contextlib.asynccontextmanager
    async def diagnosed(self) -> AsyncIterator[None]:
        """Adds where each host stood to a timeout, for a test that hangs."""
        try:
            yield
        except TimeoutError as exc:
            exc.add_note("\n".join([*map(self.where, self.hosts), *self.dialogs]))
            raise

    @staticmethod
    def where(host: RelayHost) -> str:
        game = host.game
        seen = game.received if isinstance(game, Puppet) else None
        machine, driver = host._machine, host._driver
        inner = {"cursor": machine.cursor, "reposts": driver._reposts, "write": machine._write}
        return f"{host!r} received={seen} {inner} fed={driver.feed.after} outcome={host.outcome}"

    @property
    def match(self) -> str:
        ticket = self.hosts[0].ticket
        assert ticket is not None
        return ticket.match


FIRST = ["f1", "f2", "f3!"]
SECOND = ["s1", "s2"]
ORDER = ["f1", "s1", "f2", "s2", "f3!"]


@pytest.mark.parametrize(
    ("played", "kept_moves"),
    [
        pytest.param(3, 2, id="the-first-movers-own-last-move"),
        pytest.param(4, 2, id="own-move-and-the-partners-reply"),
        pytest.param(4, 3, id="the-partners-move-already-delivered"),
    ],
)
async def test_hosts_heal_a_log_that_lost_its_tail(
    redis_relay: RedisRelay, played: int, kept_moves: int
) -> None:
    table = Table(redis_relay)
    async with table.diagnosed(), asyncio.timeout(40):
        await table.started()
        first, second = table.games()
        for index in range(played):
            game, moves = (first, FIRST) if index % 2 == 0 else (second, SECOND)
            await table.play(game, moves[index // 2])
            await table.delivered(index + 1)
        # Both games have seen every move so far; the failover loses the last ones.
        lose_tail(redis_relay.redis_url, redis_relay.prefix, table.match, 1 + kept_moves)
        lost = await relay_log(redis_relay.url, table.match)
        assert moves_in(lost) == ORDER[:kept_moves]
        for index in range(played, len(ORDER)):
            game, moves = (first, FIRST) if index % 2 == 0 else (second, SECOND)
            await table.play(game, moves[index // 2])
        outcomes = await asyncio.gather(*table.tasks)
    assert [o.reason for o in outcomes] == [Reason.AGREED] * 2, outcomes
    assert first.received == SECOND
    assert second.received == FIRST
    log = await relay_log(redis_relay.url, table.match)
    assert moves_in(log) == [*ORDER, "ended:agreed"]
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert all(isinstance(e, Moved) for e in log[1:-1])

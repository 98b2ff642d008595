"""Test helpers for game writers: two games play each other through a real relay in-process.

Under plain pytest, with the `play_match` fixture of the SDK's pytest plugin (sdk.pytest_plugin,
loaded by itself once movewire is installed):

    def test_a_whole_game_is_agreed(play_match):
        assert play_match(MyGame).reasons == (Reason.AGREED, Reason.AGREED)

or without fixtures, `run_pair(MyGame, MyGame)`. `play_pair` and `local_relay` are coroutines
for async tests, which need an async pytest plugin (pytest-asyncio or pytest-aiohttp).
`sdk.page_script.run_page_script` runs a game page's JavaScript in node beside the page kit, to
test that the page's rules agree with the Python rules.

Each helper that starts a relay takes the referees it runs, by game name: `referees={"mygame":
MygameReferee}`, as `python -m relay --referee mygame` runs an installed game's. A match is
refereed when it is played under that name (`game_key="mygame"`).

This is the one SDK module that imports the relay (when a helper runs, not at import), since it
starts one: it needs the relay's dependencies, `pip install 'movewire[relay]'`.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import secrets
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass

from sdk.game import Game, GameFactory
from sdk.outcome import Outcome, Reason, Result
from sdk.relay_host import RelayHost
from sdk.state import State
from sdk.timing import Timing

__all__ = [
    "FAST",
    "PairResult",
    "Referees",
    "crash_and_resume",
    "local_relay",
    "play_pair",
    "relay_in_thread",
    "run_pair",
]

FAST = Timing(poll_wait=1, request_timeout=5.0, backoff_base=0.01, backoff_cap=0.2, give_up=10.0)
"""Timings for tests: short polls and quick retries against a relay on this machine."""

Referees = Mapping[str, Callable[[], object]]
"""The referees a test relay runs: by game name, a zero-argument class or function that makes
the game's referee (sdk.referee), as a game package's `referee` field gives it."""

BOTH_RELAYS = (
    "referees are for the relay this helper starts: give them to the relay at relay_url "
    "(relay_in_thread, local_relay) instead"
)


@dataclass(frozen=True, slots=True)
class PairResult:
    """Two hosts after their match: what each side's game, dialogs and states were."""

    hosts: tuple[RelayHost, RelayHost]
    """The host of each side, in the order the factories were given."""
    outcomes: tuple[Outcome, Outcome]
    """Each side's outcome."""
    dialogs: tuple[list[str], list[str]]
    """Every dialog each host showed, in order."""
    states: tuple[list[State], list[State]]
    """Every state each host went through, in order."""

    @property
    def games(self) -> tuple[Game | None, Game | None]:
        """Returns each side's game (None if its match never started)."""
        return self.hosts[0].game, self.hosts[1].game

    @property
    def reasons(self) -> tuple[Reason, Reason]:
        """Returns why the match ended, as each side saw it."""
        return self.outcomes[0].reason, self.outcomes[1].reason

    @property
    def results(self) -> tuple[Result, Result]:
        """Returns what the match meant for each side: won, lost, drawn or unknown."""
        return self.outcomes[0].result, self.outcomes[1].result


@contextlib.asynccontextmanager
async def local_relay(
    *,
    hold: float = 1.0,
    grace: float = 10.0,
    max_move: int = 4096,
    claim_after: float = 300.0,
    rate_unrefereed: bool = True,
    referees: Referees | None = None,
    passkeys: bool = False,
) -> AsyncIterator[str]:
    """Runs a real relay in this event loop on a free port of 127.0.0.1; yields its URL.

    With `passkeys`, its passkeys and transfer codes are on (relying party `localhost`, a
    secret of its own): `RelayClient.make_code()` and `sign_in_with_code()` work through it.

    `claim_after` is the relay's --claim-after (a staller may be claimed against after it).
    `rate_unrefereed` is the relay's --rate-unrefereed: a test relay rates every game's
    trusted results, refereed or not, unless told not to. `referees` are the referees it
    runs, by game name (none by default), as --referee runs an installed game's; raises
    ValueError for one whose referee has no judge()."""
    from aiohttp import web

    from relay import Config, StoreSettings, create_app
    from relay.api.verdicts import pick_referees
    from relay.core.passkeys import PasskeySettings
    from relay.core.rated import RatingRules

    referees = dict(referees or {})
    picked = pick_referees(referees, referees)
    config = Config(
        host="127.0.0.1",
        port=0,
        hold=hold,
        store=StoreSettings(
            grace=grace,
            claim_after=claim_after,
            ratings=RatingRules(unrefereed=rate_unrefereed),
        ),
        max_move=max_move,
        seeks_per_minute=1_000_000,
        requests_per_second=1_000_000,
        pages=False,
        access_log=False,
        referee=tuple(referees),
        passkeys=(
            PasskeySettings("localhost", ("http://localhost",), secrets.token_bytes(32))
            if passkeys
            else None
        ),
    )
    # As `python -m relay` does: a client leaving a held poll ends its handler (presence).
    runner = web.AppRunner(
        create_app(config, referees=picked),
        access_log=None,
        shutdown_timeout=hold + 1,
        handler_cancellation=True,
    )
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


@contextlib.contextmanager
def relay_in_thread(
    *,
    hold: float = 1.0,
    grace: float = 10.0,
    max_move: int = 4096,
    referees: Referees | None = None,
) -> Iterator[str]:
    """Runs a real relay in a thread of its own (its own event loop); yields its URL.

    For synchronous tests and fixtures that want one relay for many matches: `run_pair(...,
    relay_url=url)` plays through it. The relay stops when the block ends. `referees` are the
    referees it runs, by game name, as local_relay's.
    """
    started: queue.Queue[str | BaseException] = queue.Queue()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def serve() -> None:
        try:
            relay = local_relay(hold=hold, grace=grace, max_move=max_move, referees=referees)
            async with relay as url:
                started.put(url)
                await stop.wait()
        except BaseException as exc:
            started.put(exc)
            raise

    def run() -> None:
        with contextlib.suppress(Exception):  # reported to the caller through `started`
            loop.run_until_complete(serve())
        loop.close()

    thread = threading.Thread(target=run, name="movewire-test-relay", daemon=True)
    thread.start()
    first = started.get(timeout=30)
    if isinstance(first, BaseException):
        thread.join(timeout=30)
        raise first
    try:
        yield first
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout=30)


async def play_pair(
    game_a: GameFactory,
    game_b: GameFactory,
    *,
    relay_url: str | None = None,
    game_key: str = "test",
    timing: Timing = FAST,
    timeout: float = 60.0,
    referees: Referees | None = None,
) -> PairResult:
    """Plays game_a against game_b through a relay (a fresh in-process one unless given).

    The two meet in a private room, so other tests on the same relay do not interfere. The
    fresh relay runs `referees` (by game name; the match is refereed when `game_key` names
    one); a relay given runs its own, and referees with it raise ValueError. Raises
    TimeoutError after `timeout` seconds, and any exception a game raised.
    """
    if relay_url is not None and referees is not None:
        raise ValueError(BOTH_RELAYS)
    async with contextlib.AsyncExitStack() as stack:
        if relay_url is None:
            relay_url = await stack.enter_async_context(local_relay(referees=referees))
        room = "pair-" + secrets.token_hex(8)
        dialogs: tuple[list[str], list[str]] = ([], [])
        states: tuple[list[State], list[State]] = ([], [])
        hosts = tuple(
            RelayHost(
                relay_url,
                game_key,
                factory,
                room=room,
                timing=timing,
                dialog=dialogs[side].append,
                on_state=states[side].append,
            )
            for side, factory in enumerate((game_a, game_b))
        )
        tasks = [asyncio.create_task(host.play()) for host in hosts]
        try:
            async with asyncio.timeout(timeout):
                await _first_failure(tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks)
        return PairResult(
            (hosts[0], hosts[1]), (tasks[0].result(), tasks[1].result()), dialogs, states
        )


def run_pair(
    game_a: GameFactory,
    game_b: GameFactory,
    *,
    relay_url: str | None = None,
    game_key: str = "test",
    timing: Timing = FAST,
    timeout: float = 60.0,
    referees: Referees | None = None,
) -> PairResult:
    """Returns play_pair(...) run to its end in a new event loop, for synchronous tests."""
    return asyncio.run(
        play_pair(
            game_a,
            game_b,
            relay_url=relay_url,
            game_key=game_key,
            timing=timing,
            timeout=timeout,
            referees=referees,
        )
    )


async def _first_failure(tasks: list[asyncio.Task[Outcome]]) -> None:
    """Waits for every task, raising the first exception as soon as one raises."""
    pending = set(tasks)
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            error = task.exception()
            if error is not None:
                raise error


async def crash_and_resume(
    host: RelayHost, playing: Awaitable[Outcome], game_factory: GameFactory | None = None
) -> RelayHost:
    """Stops one side mid-match as a crash would (RelayHost.close(): nothing is sent to the
    relay), waits for its `play()` (the `playing` awaitable) to return Reason.CLOSED, and
    returns the host that takes the same seat up again, its game made anew (by game_factory,
    default the host's) and restored from the log: start its `play()` to go on."""
    host.close()
    outcome = await playing
    if outcome.reason is not Reason.CLOSED:
        raise AssertionError(f"the match ended before it could be closed: {outcome}")
    return host.resumed(game_factory)

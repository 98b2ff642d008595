"""Network faults between hosts and a real relay: retried, never seen twice, never a hang."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

import aiohttp
import pytest

from sdk import (
    ConnectionLostError,
    Game,
    GameHost,
    Moved,
    Outcome,
    Passed,
    Reason,
    RelayClient,
    RelayHost,
    RelayUnreachableError,
    Result,
    State,
    Timing,
)
from sdk._endings import CONNECTION_LOST, UNREACHABLE
from sdk.testing import FAST
from tests.sdk.fault_proxy import FaultProxy
from tests.sdk.scripted import Side, moves_in, play_pair, relay_log
from tests.support.idle_game import Idle
from tests.support.relay_process import RelayProcess, free_port

MATCHES = 200
"""Matches played through the faulty proxy."""
AT_ONCE = 40
"""Matches played at the same time."""
ALPHABET = "ab/ \n\"'{}<>&é€😀𝄞\\\t"
"""What move payloads are made of: separators, quotes, markup, astral-plane characters."""

FAULTY = Timing(poll_wait=1, request_timeout=3.0, backoff_base=0.02, backoff_cap=0.5, give_up=30)
"""Short polls and quick retries."""


class Counter(Game):
    """Sends numbered moves 'k/n/payload' up to a length n the first mover draws; passes at random.

    Raises AssertionError (ending play() with it) if a move arrives twice, early or late.
    """

    def __init__(self, host: GameHost, first_move: bool, rng: random.Random) -> None:
        super().__init__(host, first_move)
        self.rng = rng
        self.count = 0
        self.length = rng.randint(1, 20) if first_move else 0
        self.sent: list[str] = []
        self.received: list[str] = []
        self.passes = 0

    def enable(self) -> None:
        self.count += 1
        payload = "".join(self.rng.choices(ALPHABET, k=self.rng.randint(0, 12)))
        text = f"{self.count}/{self.length}/{payload}"
        self.sent.append(text)
        self.host.move(text, end_game=self.count == self.length)

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        self.received.append(move)
        count, length, _ = move.split("/", 2)
        assert int(count) == self.count + 1, f"move {self.count + 1} expected, got {move!r}"
        self.count, self.length = int(count), int(length)
        if self.count == self.length:
            return State.GAME_ENDED
        if self.rng.random() < 0.15:
            self.passes += 1
            return State.PLAYING_WAIT_MOVE
        return State.PLAYING_TO_MOVE

    def result(self) -> Result | None:
        return Result.DRAWN


@dataclass
class CounterMatch:
    """The two hosts of one match, their outcomes and their dialogs."""

    hosts: list[RelayHost]
    outcomes: list[Outcome]
    dialogs: list[str]

    def games(self) -> tuple[Counter, Counter]:
        """Returns (the first mover's game, the other's)."""
        games = [host.game for host in self.hosts]
        assert all(isinstance(game, Counter) for game in games)
        first, second = sorted(games, key=lambda game: not game.first_move)  # type: ignore[union-attr]
        assert isinstance(first, Counter) and isinstance(second, Counter)
        return first, second


async def play_counter(url: str, room: str, seed: int, timing: Timing) -> CounterMatch:
    """Plays one Counter match between two hosts meeting in `room`."""
    dialogs: list[str] = []

    def make(rng: random.Random) -> RelayHost:
        def game(host: GameHost, first_move: bool) -> Game:
            return Counter(host, first_move, rng)

        return RelayHost(url, "counter", game, room=room, timing=timing, dialog=dialogs.append)

    hosts = [make(random.Random(seed * 2 + side)) for side in (0, 1)]
    outcomes = await asyncio.gather(*(host.play() for host in hosts))
    return CounterMatch(hosts, list(outcomes), dialogs)


async def check_delivered_once_in_order(client: RelayClient, played: CounterMatch) -> int:
    """Asserts both games and the relay log agree move for move; returns the number of moves."""
    assert [o.reason for o in played.outcomes] == [Reason.AGREED] * 2, played.outcomes
    assert played.dialogs == []
    first, second = played.games()
    assert first.sent == second.received
    assert second.sent == first.received
    every = sorted(first.sent + second.sent, key=lambda text: int(text.split("/", 1)[0]))
    assert [int(text.split("/", 1)[0]) for text in every] == list(range(1, first.length + 1))
    match = played.outcomes[0].match
    assert match is not None
    log = await client.events(match, 0)
    assert [e.move for e in log if isinstance(e, Moved)] == every
    assert sum(isinstance(e, Passed) for e in log) == first.passes + second.passes
    return len(every)


@pytest.mark.slow
@pytest.mark.timeout(150)
async def test_200_matches_through_a_faulty_network_deliver_every_move_once_in_order() -> None:
    args = (
        "--hold",
        "1",
        "--grace",
        "15",
        "--seeks-per-minute",
        "1000000",
        "--requests-per-second",
        "1000000",
        "--no-access-log",
    )
    started = time.monotonic()
    with RelayProcess(*args) as relay:
        async with FaultProxy(
            relay.port, seed=2024, reset=0.03, drop=0.03, delay=0.1, stall=0.002, max_delay=0.05
        ) as proxy:
            limit = asyncio.Semaphore(AT_ONCE)

            async def one(index: int) -> CounterMatch:
                async with limit:
                    return await play_counter(proxy.url, f"fault-{index}", index, FAULTY)

            async with asyncio.timeout(120):
                matches = await asyncio.gather(*(one(index) for index in range(MATCHES)))
        async with aiohttp.ClientSession() as session:
            client = RelayClient(session, relay.url, FAST)
            moves = [await check_delivered_once_in_order(client, m) for m in matches]
    elapsed = time.monotonic() - started
    retries = sum(host.retries for m in matches for host in m.hosts)
    passes = sum(game.passes for m in matches for game in m.games())
    injected = proxy.faults
    print(
        f"\n{MATCHES} matches, {sum(moves)} moves ({min(moves)}-{max(moves)} a match), "
        f"{passes} passes in {elapsed:.1f} s; {injected.requests} requests, faults injected: "
        f"{injected.resets} resets, {injected.drops} dropped answers, {injected.delays} delays, "
        f"{injected.stalls} stalls; {retries} retries by the hosts"
    )
    assert len(matches) == MATCHES
    assert injected.resets and injected.drops and injected.delays and injected.stalls
    assert retries > 0  # (aiohttp itself also sends a GET again once on a dropped keep-alive)


async def test_lost_answer_to_a_move_post_is_retried_and_applied_once(relay: str) -> None:
    port = int(relay.rsplit(":", 1)[1])
    async with FaultProxy(port, drop_first=b"/moves?") as proxy:
        first = Side(["a1", "a2!"])
        second = Side(["b1"], answers={"a2!": State.GAME_ENDED})
        played = await play_pair(proxy.url, first, second)
    assert proxy.faults.drops == 1
    assert played.first.retries + played.second.retries >= 1
    assert [played.outcome(side).reason for side in (True, False)] == [Reason.AGREED] * 2
    assert moves_in(await relay_log(relay, played.match)) == ["a1", "b1", "a2!", "ended:agreed"]
    assert [c[1] for c in played.second.calls if c[0] == "receive_move"] == ["a1", "a2!"]


async def test_lost_answer_to_a_seek_is_retried_and_takes_one_seat(relay: str) -> None:
    port = int(relay.rsplit(":", 1)[1])
    async with FaultProxy(port, drop_first=b"/v1/seek ") as proxy:
        first = Side(["a1!"])
        second = Side([], answers={"a1!": State.GAME_ENDED})
        played = await play_pair(proxy.url, first, second)
    assert proxy.faults.drops == 1
    assert [played.outcome(side).reason for side in (True, False)] == [Reason.AGREED] * 2
    assert moves_in(await relay_log(relay, played.match)) == ["a1!", "ended:agreed"]


async def test_relay_gone_for_good_ends_the_match_with_a_dialog_not_a_hang() -> None:
    brief = Timing(poll_wait=1, request_timeout=1.0, backoff_base=0.05, backoff_cap=0.2, give_up=2)
    with RelayProcess(
        "--hold",
        "1",
        "--grace",
        "30",
        "--seeks-per-minute",
        "1000",
        "--requests-per-second",
        "100000",
    ) as relay:
        dialogs: list[str] = []
        turns = asyncio.Event()

        def on_state(state: State) -> None:
            if state is State.PLAYING_TO_MOVE:
                turns.set()

        hosts = [
            RelayHost(
                relay.url, "idle", Idle, room="gone", timing=brief,
                dialog=dialogs.append, on_state=on_state,
            )
            for _ in "ab"
        ]  # fmt: skip
        async with asyncio.timeout(20):
            tasks = [asyncio.create_task(host.play()) for host in hosts]
            await turns.wait()
            relay.stop()
            began = time.monotonic()
            outcomes = await asyncio.gather(*tasks)
    assert time.monotonic() - began < brief.give_up + brief.poll_timeout + 1
    assert [o.reason for o in outcomes] == [Reason.CONNECTION_LOST] * 2
    assert [o.result for o in outcomes] == [Result.UNKNOWN] * 2
    assert all(host.state is State.GAME_ENDED for host in hosts)
    assert len(dialogs) == 2
    assert all(d.startswith(CONNECTION_LOST.split("{", 1)[0]) for d in dialogs)
    assert outcomes[0].message in dialogs


@pytest.mark.parametrize(
    "timing",
    [Timing(), Timing(poll_wait=1, request_timeout=0.5, backoff_base=0.05, give_up=1)],
    ids=["default", "give-up-shorter-than-first-contact"],
)
async def test_a_mistyped_relay_address_fails_within_seconds_naming_url_and_cause(
    timing: Timing,
) -> None:
    dialogs: list[str] = []
    url = f"http://127.0.0.1:{free_port()}"
    host = RelayHost(url, "nobody", Idle, timing=timing, dialog=dialogs.append)
    began = time.monotonic()
    async with asyncio.timeout(20):
        outcome = await host.play()
    assert time.monotonic() - began < min(timing.first_contact, timing.give_up) + 1.0
    assert (outcome.reason, outcome.match, outcome.is_finished) == (
        Reason.CONNECTION_LOST,
        None,
        False,
    )
    assert host.state is State.NOT_CONNECTED
    assert host.retries >= 2
    assert dialogs == [outcome.message]
    assert outcome.message.startswith(UNREACHABLE.split("{", 1)[0])
    assert f"nothing answers at {url} (ClientConnectorError" in outcome.message


async def test_a_relay_that_answered_once_is_retried_for_the_whole_give_up_time() -> None:
    brief = Timing(
        poll_wait=1, request_timeout=0.5, backoff_base=0.05, backoff_cap=0.1, give_up=2.5,
        first_contact=0.3,
    )  # fmt: skip
    with RelayProcess() as relay:
        async with aiohttp.ClientSession() as session:
            client = RelayClient(session, relay.url, brief)
            ticket = await client.seek("outage")
            relay.stop()
            began = time.monotonic()
            with pytest.raises(ConnectionLostError) as lost:
                await client.events(ticket, 0)
    assert time.monotonic() - began >= 2.0  # give_up, not first_contact
    assert not isinstance(lost.value, RelayUnreachableError)
    assert "no answer from" in str(lost.value)

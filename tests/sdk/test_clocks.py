"""Clocks in the Python SDK: time controls sought, both seats' time read by the game and
running down for the seat to move, a timeout told as such; player keys listing and resuming
correspondence matches."""

from __future__ import annotations

# ruff: noqa: ASYNC110  (the tests poll a host's state, which has no event to wait on)
import asyncio
import secrets
from pathlib import Path

import aiohttp
import pytest

from sdk import (
    Game,
    GameHost,
    Reason,
    RelayClient,
    RelayHost,
    Result,
    State,
    TimeControl,
    format_left,
    load_player_key,
    new_player_key,
)
from sdk._endings import PARTNER_TIMEOUT, SELF_TIMEOUT
from sdk.clock import BAD_CLOCK
from sdk.testing import FAST
from sdk.timing import Timing
from tests.support.idle_game import Idle


@pytest.mark.parametrize(
    ("text", "control"),
    [
        ("5+3", TimeControl.fischer(300, 3)),
        ("10", TimeControl.fischer(600, 0)),
        ("0.5+1", TimeControl.fischer(30, 1)),
        ("3d", TimeControl.deadline(3 * 86400)),
        ("12h", TimeControl.deadline(12 * 3600)),
        (" 1D ", TimeControl.deadline(86400)),
    ],
)
def test_a_clock_is_written_as_players_write_it(text: str, control: TimeControl) -> None:
    assert TimeControl.parse(text) == control
    assert TimeControl.from_json(control.to_json()) == control


@pytest.mark.parametrize("text", ["", "5+", "+3", "3w", "d", "5:00", "-1", "5+3.5"])
def test_anything_else_is_refused_with_the_forms(text: str) -> None:
    with pytest.raises(ValueError) as refused:
        TimeControl.parse(text)
    assert str(refused.value) == BAD_CLOCK.format(text=text.strip().lower())


@pytest.mark.parametrize(
    ("seconds", "control", "shown"),
    [
        (293.4, TimeControl.fischer(300, 3), "4:53"),
        (3723, TimeControl.fischer(7200), "1:02:03"),
        (0, TimeControl.fischer(60), "0:00"),
        (2 * 86400 + 4 * 3600 + 59, TimeControl.deadline(3 * 86400), "2 days 4 hours"),
        (86400 + 60, TimeControl.deadline(3 * 86400), "1 day"),
        (5 * 3600 + 12 * 60 + 30, TimeControl.deadline(86400), "5 hours 12 minutes"),
        (3600, TimeControl.deadline(86400), "1 hour"),
        (12 * 60 + 59, TimeControl.deadline(86400), "12 minutes"),
        (45.9, TimeControl.deadline(86400), "45 seconds"),
    ],
)
def test_time_left_reads_as_a_player_expects(
    seconds: float, control: TimeControl, shown: str
) -> None:
    assert format_left(seconds, control) == shown


class ClockReader(Game):
    """Plays `moves` after `think` seconds each, and notes both clocks at each enable()."""

    def __init__(self, host: GameHost, moves: list[str], think: float) -> None:
        self.host, self.moves, self.think = host, list(moves), think
        self.readings: list[tuple[float, float]] = []

    def enable(self) -> None:
        clock = self.host.clock
        assert clock is not None
        self.readings.append(clock.left())
        if self.moves:
            move = self.moves.pop(0)
            asyncio.get_running_loop().call_later(self.think, self.host.move, move)

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        return State.PLAYING_TO_MOVE


async def test_both_seats_time_runs_for_the_seat_to_move_and_gains_the_increment(
    relay: str,
) -> None:
    room = "clock-" + secrets.token_hex(4)
    control = TimeControl.fischer(60, 2)
    games: dict[bool, ClockReader] = {}

    def make(host: GameHost, first: bool) -> Game:
        games[first] = ClockReader(host, ["a", "b", "c"], 0.3)
        return games[first]

    hosts = [
        RelayHost(relay, "clocked", make, room=room, time_control=control, timing=FAST)
        for _ in "ab"
    ]
    tasks = [asyncio.create_task(host.play()) for host in hosts]
    async with asyncio.timeout(20):
        while len(games) < 2 or len(games[False].readings) < 3:
            await asyncio.sleep(0.05)
        hosts[0].resign()
        await asyncio.gather(*tasks)
    first, second = games[True], games[False]
    mover = first.host
    assert isinstance(mover, RelayHost) and mover.ticket is not None
    seat = mover.ticket.seat
    assert first.readings[0] == pytest.approx((60, 60), abs=0.2)
    # Each move took 0.3 s and gained 2: the first mover is 1.7 s up after each of its moves,
    # as the second mover reads at its turns, while its own clock ran.
    for k, reading in enumerate(second.readings):
        assert reading[seat] == pytest.approx(60 + 1.7 * (k + 1), abs=0.25), second.readings
        assert reading[1 - seat] == pytest.approx(60 + 1.7 * k, abs=0.25), second.readings
    clock = hosts[0].clock
    assert clock is not None and clock.turn is None, "no clock runs once the match is over"
    frozen = clock.left()
    await asyncio.sleep(0.2)
    assert clock.left() == frozen


class Silent(Idle):
    """Never moves; keeps its host."""

    def __init__(self, host: GameHost) -> None:
        self.host = host


async def test_a_seat_out_of_time_loses_and_its_partner_wins_by_timeout(relay: str) -> None:
    room = "timeout-" + secrets.token_hex(4)
    dialogs: dict[int, list[str]] = {0: [], 1: []}
    hosts = [
        RelayHost(
            relay,
            "clocked",
            lambda host, first: Silent(host),
            room=room,
            time_control=TimeControl.fischer(1, 0),
            timing=FAST,
            dialog=dialogs[k].append,
        )
        for k in range(2)
    ]
    async with asyncio.timeout(20):
        outcomes = await asyncio.gather(*(host.play() for host in hosts))
    by_result = {outcome.result: outcome for outcome in outcomes}
    assert set(by_result) == {Result.WON, Result.LOST}
    assert all(outcome.reason is Reason.TIMEOUT for outcome in outcomes)
    loser = by_result[Result.LOST]
    assert loser.by == loser.seat
    assert by_result[Result.WON].message == PARTNER_TIMEOUT
    assert loser.message == SELF_TIMEOUT


async def test_a_player_key_lists_its_correspondence_matches_and_resumes_one(
    relay: str, tmp_path: Path
) -> None:
    ann, bob = new_player_key(), new_player_key()
    control = TimeControl.deadline(86400)
    game = "mail-" + secrets.token_hex(4)
    moved: list[str] = []

    class Mover(Silent):
        def enable(self) -> None:
            self.host.move("e4")

        def receive_move(self, move: str) -> State:
            moved.append(move)
            return State.PLAYING_TO_MOVE

    hosts = [
        RelayHost(
            relay, game, lambda h, f: Silent(h), time_control=control, player=key, timing=FAST
        )
        for key in (ann, bob)
    ]
    tasks = [asyncio.create_task(host.play()) for host in hosts]
    async with asyncio.timeout(20):
        while any(host.ticket is None or host.clock is None for host in hosts):
            await asyncio.sleep(0.05)
        for task in tasks:  # both players close their laptops
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        async with aiohttp.ClientSession() as session:
            client = RelayClient(session, relay, Timing())
            listed = await client.player_matches(ann)
        assert [row.game for row in listed] == [game]
        row = listed[0]
        assert row.status == "playing" and row.time_control == control
        assert row.left is not None and 86000 < max(row.left) <= 86400
        whose = ann if row.your_turn else bob
        async with aiohttp.ClientSession() as session:
            client = RelayClient(session, relay, Timing())
            mine = (await client.player_matches(whose))[0]
        assert mine.your_turn
        resumed = RelayHost.resume(relay, mine.ticket(whose), lambda h, f: Mover(h), timing=FAST)
        playing = asyncio.create_task(resumed.play())
        while resumed.state is not State.PLAYING_WAIT_MOVE:
            await asyncio.sleep(0.05)
        clock = resumed.clock
        assert clock is not None and clock.turn == 1 - mine.seat
        resumed.resign()
        await playing
    key_file = tmp_path / "keys" / "player-key"
    key = load_player_key(key_file)
    assert load_player_key(key_file) == key and len(key) == 43
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"

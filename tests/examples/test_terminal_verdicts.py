"""Two people in pseudo-terminals play X and 0 to its end, and each is told who won in the
game's words: a referee's verdict (`--referee xand0`), or the game's own when both games
agree the game is over and no referee runs."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator, Sequence

import aiohttp
import pexpect
import pytest

from examples.board import rules as board
from examples.text.person import headline
from examples.xand0 import rules as xand0
from sdk import Outcome, Reason, Result
from tests.examples.textclients import fresh_room, person
from tests.relay.wire import Seat, Wire
from tests.support.relay_process import RelayProcess, quick_flags

PROMPT = re.compile(r"Your move \([XO]\): ")
PAIRED = re.compile(r"Paired: you play [XO], (moving first|your opponent moves first)\.")

COLUMN = ["00", "10", "01", "11", "02"]
"""X fills column 0 while O answers in column 1: X wins, three in a row."""

FULL = ["11", "00", "22", "02", "01", "21", "20", "10", "12"]
"""Nine moves and no line of three: a draw."""


@pytest.fixture(scope="module")
def refereed() -> Iterator[str]:
    """Returns the URL of a relay that referees X and 0."""
    with RelayProcess(*quick_flags(hold=2, grace=30), "--referee", "xand0") as started:
        yield started.url


@pytest.fixture(scope="module")
def opaque() -> Iterator[str]:
    """Returns the URL of a relay without a referee: the two games agree on the end."""
    with RelayProcess(*quick_flags(hold=2, grace=30)) as started:
        yield started.url


def play_out(relay: str, moves: Sequence[str]) -> tuple[str, str]:
    """Seats two people in a room, plays the moves alternately, the first mover first; returns
    the last line each is told (the first mover's first), after it declines a rematch."""
    room = fresh_room()
    with person("xand0", relay, room) as a, person("xand0", relay, room) as b:
        firsts = []
        for side in (a, b):
            side.expect(PAIRED)
            firsts.append(side.match.group(1) == "moving first")
        assert firsts[0] != firsts[1]
        x, o = (a, b) if firsts[0] else (b, a)
        for i, move in enumerate(moves):
            mover = x if i % 2 == 0 else o
            mover.expect(PROMPT)
            mover.sendline(move)
        told = []
        for side in (x, o):
            side.expect_exact("Again? [y/n] ")
            told.append(last_line(side.before))
            side.sendline("n")
            side.expect(pexpect.EOF)
    return told[0], told[1]


def last_line(text: str) -> str:
    """Returns the last line of what a person read, its colour and styles taken off."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    lines = [line.strip() for line in plain.replace("\r", "\n").split("\n") if line.strip()]
    return lines[-1]


def test_the_moves_end_as_the_tests_say() -> None:
    won = xand0.Board.from_moves(COLUMN).outcome()
    assert won is not None and won.winner == board.FIRST
    drawn = xand0.Board.from_moves(FULL).outcome()
    assert drawn is not None and drawn.winner is None


@pytest.mark.timeout(60)
def test_a_referees_win_is_told_to_both_in_its_words(refereed: str) -> None:
    assert play_out(refereed, COLUMN) == ("You win: three in a row.", "You lose: three in a row.")


@pytest.mark.timeout(60)
def test_a_referees_draw_is_told_to_both_in_its_words(refereed: str) -> None:
    said = "A draw: the board is full."
    assert play_out(refereed, FULL) == (said, said)


@pytest.mark.timeout(60)
def test_an_agreed_win_is_told_in_the_games_own_words(opaque: str) -> None:
    assert play_out(opaque, COLUMN) == ("You win: three in a row.", "You lose: three in a row.")


WORDS = "three down the middle"
"""The words a foreign client's game-ending move gives, not the ones X and 0 itself says."""

ENDER_FIRST = ["00", "10", "01", "11", "02"]
"""The ender moves first (X) and wins in column 0."""
ENDER_SECOND = ["00", "10", "01", "11", "22", "12"]
"""The ender moves second (O) and wins in column 1."""


@pytest.mark.timeout(60)
async def test_an_agreed_end_is_told_in_the_enders_words(opaque: str) -> None:
    room = fresh_room()
    with person("xand0", opaque, room) as me:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as session:
            wire = Wire(session, opaque)
            seat = await wire.seek("xand0", version="1", room=room)
            started = (await next_events(wire, seat, 0))[0]
            ender_first = started["first"] == seat.seat
            moves = ENDER_FIRST if ender_first else ENDER_SECOND
            for after, move in enumerate(moves, start=1):
                if (after % 2 == 1) == ender_first:
                    end = after == len(moves)
                    said = {"claim": "win", "detail": WORDS} if end else {}
                    body = {"after": after, "move": move, "end": end, **said}
                    assert (await wire.post(seat, "moves", body))[0] == 200
                else:
                    await asyncio.to_thread(me.expect, PROMPT)
                    me.sendline(move)
                    await next_events(wire, seat, after)
            await asyncio.to_thread(me.expect_exact, "Again? [y/n] ")
            assert last_line(me.before) == f"You lose: {WORDS}."
            ended = (await next_events(wire, seat, len(moves) + 1))[-1]
            assert (ended["reason"], ended["detail"]) == ("agreed", WORDS)
        me.sendline("n")
        await asyncio.to_thread(me.expect, pexpect.EOF)


async def next_events(wire: Wire, seat: Seat, after: int) -> list[dict[str, object]]:
    """Returns the events above `after` once there are some, polling as the seat."""
    while not (found := await wire.events(seat.match, after, seat, wait=5)):
        pass
    return found


def test_a_refereed_end_is_told_once_in_the_referees_words() -> None:
    illegal = "The referee found your partner's move 3 illegal: that square is taken. You win."
    told = Outcome(Result.WON, Reason.ILLEGAL, "m", 0, by=1, message=illegal, refereed=True)
    assert headline(told) == illegal  # not "... You win. You win!"
    over = Outcome(Result.LOST, Reason.OVER, "m", 0, by=1, detail="four in a row", refereed=True)
    assert headline(over) == "You lose: four in a row."


def test_an_agreed_end_is_told_with_the_games_words_when_it_has_them() -> None:
    agreed = Outcome(Result.DRAWN, Reason.AGREED, "m", 0, by=0)
    assert headline(agreed, "the board is full") == "A draw: the board is full."
    assert headline(agreed) == "A draw."
    late = "Your partner did not confirm the end of the game in time."
    unconfirmed = Outcome(Result.WON, Reason.UNCONFIRMED, "m", 0, by=1, message=late)
    assert headline(unconfirmed, "three in a row") == f"{late} You win: three in a row."

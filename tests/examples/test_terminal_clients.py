"""A person in a pseudo-terminal plays a bot through a real relay: moves, bad input, leaving."""

from __future__ import annotations

import asyncio
import re
import signal
import threading
import time
from collections.abc import Iterator

import pexpect
import pytest

from examples.connect4 import rules as connect4
from examples.connect4.game import Connect4Game
from examples.xand0 import rules as xand0
from sdk import Outcome, Reason, RelayHost, Result
from sdk.testing import FAST
from tests.examples.textclients import (
    bot_process,
    fresh_room,
    person,
    quick_relay,
    run_person,
)
from tests.support.relay_process import free_port

PROMPT = r"Your move \(([XO])\): "
END = r"(You win|You lose|A draw)[:.]"
OPPONENT_PLAYED = re.compile(r"Your opponent played (\d+)\.")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")
BOT_VERDICT = {"You win": "lost", "You lose": "won", "A draw": "drawn"}
AGAIN = "Again? [y/n]"
PAIRED = r"Paired: you play ([XO]), (moving first|your opponent moves first)\."
COLUMN_ZERO = ["00", "10", "01", "11", "02"]
"""A short game: the first mover fills column 0 while the other plays column 1."""


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """Returns the URL of a relay for this module (1 s holds, 3 s grace)."""
    with quick_relay() as url:
        yield url


def opponent_moves(child: pexpect.spawn) -> list[str]:
    """Returns the opponent's moves the client reported since the last match."""
    return OPPONENT_PLAYED.findall(child.before)


def refused(child: pexpect.spawn, line: str, message: str) -> None:
    """Types a line and expects the message, then the prompt again."""
    child.sendline(line)
    child.expect_exact(message)
    child.expect(PROMPT)


@pytest.mark.timeout(60)
def test_a_person_plays_xand0_against_the_bot_with_bad_input_on_the_way(relay: str) -> None:
    room = fresh_room()
    with bot_process("xand0", relay, room, 1) as bot, person("xand0", relay, room) as me:
        me.expect_exact("Waiting for an opponent...")
        board, tried = xand0.Board.empty(), False
        while me.expect([PROMPT, END]) == 0:
            for played in opponent_moves(me):
                board = board.push(xand0.parse_move(played))
            if not tried and board.ply:
                tried = True
                cells = (cell for line in xand0.LINES for cell in line)
                taken = next(cell for cell in cells if board.piece_at(cell) is not None)
                text = xand0.format_move(taken)
                refused(me, "9", "Move '9' is not two digits 'ij' (column i, row j, each 0..2).")
                refused(me, "x", "Move 'x' is not two digits")
                refused(me, "", "Type your move: two digits, column then row")
                refused(me, text, f"Cell {text!r} is already occupied. Try again.")
            move = board.legal_moves()[0]
            me.sendline(xand0.format_move(move))
            board = board.push(move)
        verdict = me.match.group(1)
        me.expect(pexpect.EOF)
        me.close()
        out, _ = bot.communicate(timeout=20)
    assert tried and me.exitstatus == 0
    assert bot.returncode == 0 and out.startswith("X and 0 bot (level 1, ")
    assert out.split(": ")[1].startswith(BOT_VERDICT[verdict])
    assert COLOUR.search(me.transcript.getvalue()), "a terminal gets colour"


class Mirror(Connect4Game):
    """Answers in the column just played while it has room, else in the leftmost one."""

    def enable(self) -> None:
        legal = self.board.legal_moves()
        self.play(connect4.format_move(self.last if self.last in legal else legal[0]))


def mirror_in_thread(relay: str, room: str, outcome: list[Outcome]) -> threading.Thread:
    """Starts a Mirror seeking the room, in a thread of its own."""

    def run() -> None:
        host = RelayHost(relay, "connect4", Mirror, version="1", room=room, timing=FAST)
        outcome.append(asyncio.run(host.play()))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.timeout(60)
def test_a_person_plays_connect4_and_is_told_a_column_is_full(relay: str) -> None:
    # Against a mirror, the leftmost column fills with alternate pieces, then row 0 wins.
    room, outcome = fresh_room(), list[Outcome]()
    with person("connect4", relay, room) as me:
        mirror = mirror_in_thread(relay, room, outcome)
        board, tried = connect4.Board.empty(), False
        while me.expect([PROMPT, END]) == 0:
            for played in opponent_moves(me):
                board = board.push(connect4.parse_move(played))
            if board.height(0) == connect4.HEIGHT and not tried:
                tried = True
                refused(me, "9", "Move '9' is not one column digit 0..6. Try again.")
                refused(me, "x", "Move 'x' is not one column digit 0..6.")
                refused(me, "  ", "Type your move: a column number, 0 (left) to 6.")
                refused(me, "0", "Column 0 is full. Try again.")
            move = board.legal_moves()[0]
            me.sendline(connect4.format_move(move))
            board = board.push(move)
        verdict = me.match.group(1)
        me.expect_exact(AGAIN)  # the mirror never answers: the person says no
        me.sendline("n")
        me.expect_exact("No rematch.")
        me.expect(pexpect.EOF)
        me.close()
        mirror.join(20)
    assert tried and me.exitstatus == 0
    expected = Result.LOST if verdict == "You win" else Result.WON
    assert [(o.result, o.reason) for o in outcome] == [(expected, Reason.AGREED)]
    assert "[" in me.transcript.getvalue().split("Your opponent played")[-1], "last move marked"


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("game", "how", "said"),
    [
        ("xand0", "ctrl-c", "Interrupted: resigning."),
        ("connect4", "eof", "End of input: resigning."),
    ],
)
def test_a_person_who_leaves_resigns_and_the_bot_wins(
    relay: str, game: str, how: str, said: str
) -> None:
    room = fresh_room()
    with bot_process(game, relay, room, 1) as bot, person(game, relay, room, NO_COLOR="1") as me:
        me.expect(PROMPT)
        if how == "ctrl-c":
            me.sendintr()
        else:
            me.sendeof()
        me.expect_exact(said)
        me.expect_exact("You resigned: your opponent wins.")
        me.expect(pexpect.EOF)
        me.close()
        out, err = bot.communicate(timeout=20)
    assert me.exitstatus == 0
    assert "Traceback" not in me.transcript.getvalue()
    assert not COLOUR.search(me.transcript.getvalue()), "NO_COLOR is respected"
    assert bot.returncode == 0 and out.endswith(": won, opponent resigned\n"), (out, err)


@pytest.mark.timeout(60)
def test_the_person_is_told_when_the_bot_resigns_or_leaves(relay: str) -> None:
    for stop, told in [
        (signal.SIGTERM, "Your opponent resigned: you win!"),
        (signal.SIGKILL, "Your opponent left the match: you win!"),
    ]:
        room = fresh_room()
        with bot_process("xand0", relay, room, 1) as bot, person("xand0", relay, room) as me:
            me.expect(PROMPT)
            bot.send_signal(stop)
            me.expect_exact(told)
            me.expect(pexpect.EOF)
            me.close()
        assert me.exitstatus == 0


@pytest.mark.timeout(30)
def test_ctrl_c_while_waiting_for_an_opponent_leaves_the_queue(relay: str) -> None:
    with person("xand0", relay, fresh_room()) as me:
        me.expect_exact("Waiting for an opponent...")
        me.expect_exact("0:01")  # the elapsed time, live on a terminal
        me.sendintr()
        me.expect_exact("Interrupted: leaving the queue.")
        me.expect_exact("You left before an opponent came.")
        me.expect(pexpect.EOF)
        me.close()
    assert me.exitstatus == 0


@pytest.mark.timeout(60)
def test_a_piped_game_has_no_colour_and_plays_the_lines_in_turn(relay: str) -> None:
    room = fresh_room()
    cells = "".join(f"{c}{r}\n" for r in range(3) for c in range(3))
    with bot_process("xand0", relay, room, 1) as bot:
        done = run_person("xand0", relay, room, cells)
        bot.communicate(timeout=20)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    assert re.search(END, done.stdout), done.stdout
    assert "Your move (" in done.stdout and bot.returncode == 0


@pytest.mark.timeout(60)
@pytest.mark.parametrize("game", ["xand0", "connect4"])
def test_a_mistyped_relay_port_fails_within_seconds_naming_it(game: str) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    began = time.monotonic()
    with person(game, url, fresh_room()) as me:
        me.expect_exact("Could not reach the relay: nothing answers at")
        me.expect(pexpect.EOF)
        me.close()
        assert me.exitstatus == 1
    assert time.monotonic() - began < 15  # the give-up time is a minute; first contact, seconds
    out = COLOUR.sub("", me.transcript.getvalue())
    assert f"Could not reach the relay: nothing answers at {url} (ClientConnectorError" in out

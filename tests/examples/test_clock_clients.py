"""Text clients on a clock through a real relay: --clock sought, both clocks shown at each
prompt, and bots that budget their search by their time left and never lose on time."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pexpect
import pytest

from examples.board.budget import think_budget
from examples.connect4 import bot as connect4_bot
from examples.connect4.terminal import CONNECT4
from examples.text.cli import parse_args
from examples.xand0 import rules as xand0
from examples.xand0.terminal import XAND0
from sdk import Clock, TimeControl
from tests.examples.textclients import bot_process, fresh_room, person, quick_relay

PROMPT = r"Your move \([XO]\): "
END = r"(You win!|You lose\.|Draw\.)"
OPPONENT_PLAYED = re.compile(r"Your opponent played (\d+)\.")
FISCHER_CLOCKS = r"Clock: you (\d+):(\d\d), opponent (\d+):(\d\d)\."


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """Returns the URL of a relay for this module (1 s holds, 3 s grace)."""
    with quick_relay() as url:
        yield url


def test_clock_forms_are_read_as_time_controls() -> None:
    assert parse_args(XAND0, ["--clock", "5+3"]).clock == TimeControl.fischer(300, 3)
    assert parse_args(XAND0, ["--clock", "10"]).clock == TimeControl.fischer(600)
    assert parse_args(CONNECT4, ["--clock", "3d", "--bot"]).clock == TimeControl.deadline(259200)
    assert parse_args(CONNECT4, ["--clock", "12h"]).clock == TimeControl.deadline(43200)
    assert parse_args(CONNECT4, []).clock is None


@pytest.mark.parametrize("bad", ["5-3", "3w", "fast", "d3"])
def test_a_bad_clock_is_a_usage_error_listing_the_forms(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_args(XAND0, ["--clock", bad])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --clock: a clock is 'M+S'" in err
    assert "'Nd' / 'Nh'" in err and repr(bad) in err


def test_replay_takes_no_clock(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_args(XAND0, ["--replay", "m", "--clock", "5+3"])
    assert exit_.value.code == 2
    assert "neither --bot, --room nor --clock" in capsys.readouterr().err


def test_a_bot_thinks_a_share_of_its_time_left_and_at_most_its_own_limit() -> None:
    now = time.monotonic()
    fischer = Clock(TimeControl.fischer(600, 4), (600.0, 100.0), 1, now)
    assert think_budget(None, 0, 2.0) == 2.0
    assert think_budget(fischer, 0, 2.0) == 2.0  # 600 / 20 + 2 is more than its own limit
    assert think_budget(fischer, 1, 60.0) == pytest.approx(100 / 20 + 2, abs=0.1)
    short = Clock(TimeControl.fischer(10, 0), (10.0, 2.0), 1, now)
    assert think_budget(short, 1, 2.0) == pytest.approx(0.1, abs=0.05)
    low = Clock(TimeControl.fischer(10, 6), (1.0, 1.0), 0, now)
    assert think_budget(low, 0, 2.0) == pytest.approx(0.5, abs=0.05)  # half the time left
    days = Clock(TimeControl.deadline(86400), (86400.0, 86400.0), 0, now)
    assert think_budget(days, 0, 2.0) == 2.0


@pytest.mark.timeout(90)
def test_two_strongest_connect4_bots_on_a_10_second_clock_finish_without_a_timeout(
    relay: str,
) -> None:
    # Unbudgeted, the strongest level searches up to 2 s a move: 10 s would not last a game.
    room, clock = fresh_room(), ("--clock", "0.17")  # 0.17 minutes: 10 s each, no increment
    level = connect4_bot.MAX_LEVEL
    with (
        bot_process("connect4", relay, room, level, *clock) as a,
        bot_process("connect4", relay, room, level, *clock) as b,
    ):
        answers = [a.communicate(timeout=70), b.communicate(timeout=70)]
    assert [a.returncode, b.returncode] == [0, 0], answers
    lines = [out.strip() for out, _ in answers]
    assert all(line.startswith("Connect Four bot (level 5, ") for line in lines), answers
    assert not any("time" in line for line in lines), answers
    verdicts = sorted(line.split(": ")[1].split(",")[0] for line in lines)
    assert verdicts in (["drawn", "drawn"], ["lost", "won"]), answers
    assert all(line.endswith(" moves") for line in lines), answers


@pytest.mark.timeout(60)
def test_a_person_on_a_fischer_clock_sees_both_clocks_at_each_prompt(relay: str) -> None:
    room = fresh_room()
    with (
        bot_process("xand0", relay, room, 1, "--clock", "5+3") as bot,
        person("xand0", relay, room, "--clock", "5+3") as me,
    ):
        me.expect_exact("clock 5 min + 3 s")
        board, shown = xand0.Board.empty(), []
        while me.expect([FISCHER_CLOCKS, END]) == 0:
            mine = int(me.match.group(1)) * 60 + int(me.match.group(2))
            theirs = int(me.match.group(3)) * 60 + int(me.match.group(4))
            shown.append((mine, theirs))
            me.expect(PROMPT)
            for played in OPPONENT_PLAYED.findall(me.before):
                board = board.push(xand0.parse_move(played))
            move = board.legal_moves()[0]
            me.sendline(xand0.format_move(move))
            board = board.push(move)
        me.expect(pexpect.EOF)
        bot.communicate(timeout=20)
    assert shown, me.transcript.getvalue()
    # Each side starts with 5:00 and gains 3 s a move: a quick game stays near 5:00.
    assert all(290 <= mine <= 315 and 290 <= theirs <= 315 for mine, theirs in shown), shown


@pytest.mark.timeout(60)
def test_a_person_on_a_correspondence_clock_sees_days_and_hours(relay: str) -> None:
    room = fresh_room()
    with (
        bot_process("xand0", relay, room, 1, "--clock", "3d") as bot,
        person("xand0", relay, room, "--clock", "3d") as me,
    ):
        me.expect_exact("clock 3 days a move")
        me.expect(r"Clock: you (3 days|2 days 23 hours), opponent (3 days|2 days 23 hours)\.")
        me.expect(PROMPT)
        me.sendcontrol("c")
        me.expect_exact("resigning")
        me.expect(pexpect.EOF)
        out, _ = bot.communicate(timeout=20)
    assert "opponent resigned" in out

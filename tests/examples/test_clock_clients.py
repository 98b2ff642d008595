"""The text clients' --clock: the forms it reads, a clear usage error listing them, and a
correspondence clock shown in days and hours at the prompt, through a real relay (the Fischer
clock and the bots' budget: test_terminal_clocks.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pexpect
import pytest

from examples.connect4.terminal import CONNECT4
from examples.text.cli import parse_args
from examples.xand0.terminal import XAND0
from sdk import TimeControl
from tests.examples.textclients import bot_process, fresh_room, person, quick_relay

PROMPT = r"Your move \([XO]\): "


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


@pytest.mark.timeout(60)
def test_a_person_on_a_correspondence_clock_sees_days_and_hours(relay: str) -> None:
    room = fresh_room()
    with (
        bot_process("xand0", relay, room, 1, "--clock", "3d") as bot,
        person("xand0", relay, room, "--clock", "3d") as me,
    ):
        me.expect_exact("clock 3 days a move")
        me.expect(
            r"Time left: you (3 days|2 days 23 hours), your opponent (3 days|2 days 23 hours)"
            r" \(3 days a move\)\."
        )
        me.expect(PROMPT)
        me.sendcontrol("c")
        me.expect_exact("resigning")
        me.expect(pexpect.EOF)
        out, _ = bot.communicate(timeout=20)
    assert "opponent resigned" in out

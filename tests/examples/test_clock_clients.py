"""The text clients' --clock: the forms it reads and a clear usage error listing them (the
clocks at the prompt and the bots' budget, through a real relay: test_terminal_clocks.py)."""

from __future__ import annotations

import pytest

from examples.connect4.terminal import CONNECT4
from examples.text.cli import parse_args
from examples.xand0.terminal import XAND0
from sdk import TimeControl


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

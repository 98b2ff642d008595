"""The terminal clients' rated seeks: --rated and --within N bring the player key (and the
range), and a match played without a key ends without a rating line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from examples.text.cli import _seeking, parse_args
from examples.text.client import rating_line
from examples.text.console import Screen
from examples.xand0.game import Xand0Bot
from examples.xand0.terminal import XAND0
from sdk import Outcome, RatingRange, Reason, RelayHost, Result


def test_within_takes_whole_points_from_1_to_4000_and_no_room(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert parse_args(XAND0, ["--within", "200"]).within == 200
    assert parse_args(XAND0, []).within is None
    for bad in (["--within", "0"], ["--within", "4001"], ["--within", "x"]):
        with pytest.raises(SystemExit) as exit_:
            parse_args(XAND0, bad)
        assert exit_.value.code == 2
    with pytest.raises(SystemExit):
        parse_args(XAND0, ["--within", "100", "--room", "r"])
    assert "--within finds a random opponent: it takes no --room" in capsys.readouterr().err


async def test_a_rated_seek_brings_the_player_key_and_the_range(tmp_path: Path) -> None:
    key_file = tmp_path / "player-key"
    screen = Screen(io.StringIO(), color=False, live=False)
    near = parse_args(XAND0, ["--within", "150", "--player-key-file", str(key_file)])
    seeking = await _seeking(XAND0, near, screen)
    assert seeking is not None and seeking.player == key_file.read_text().strip()
    assert seeking.rating_range == RatingRange(within=150)
    rated = parse_args(XAND0, ["--rated", "--player-key-file", str(key_file)])
    seeking = await _seeking(XAND0, rated, screen)
    assert seeking is not None and seeking.player is not None and seeking.rating_range is None
    plain = parse_args(XAND0, ["--player-key-file", str(tmp_path / "other")])
    seeking = await _seeking(XAND0, plain, screen)
    assert seeking is not None and seeking.player is None
    assert not (tmp_path / "other").exists()


async def test_a_match_without_a_player_key_ends_without_a_rating_line() -> None:
    host = RelayHost("http://127.0.0.1:9", "xand0", Xand0Bot)
    outcome = Outcome(Result.WON, Reason.AGREED, "m1", 0)
    assert await rating_line(host, outcome, "X and 0") is None

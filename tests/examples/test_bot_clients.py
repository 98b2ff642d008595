"""The `--bot` command line: two bot processes play a whole match through a real relay."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Iterator

import pytest

from examples.connect4 import bot as connect4_bot
from examples.connect4.terminal import CONNECT4
from examples.text.cli import parse_args
from examples.text.client import BotSession
from examples.xand0 import bot as xand0_bot
from examples.xand0.game import Xand0Bot
from examples.xand0.terminal import XAND0
from sdk import Reason, RelayHost, Result
from sdk.testing import FAST
from tests.examples.textclients import bot_process, fresh_room, quick_relay


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """Returns the URL of a relay for this module (1 s holds, 3 s grace)."""
    with quick_relay() as url:
        yield url


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("game", "levels", "results"),
    [
        ("xand0", (xand0_bot.MAX_LEVEL, xand0_bot.MAX_LEVEL), [["drawn", "drawn"]]),
        ("connect4", (2, 3), [["drawn", "drawn"], ["lost", "won"]]),
    ],
)
def test_two_bot_processes_finish_a_match_and_print_one_line_each(
    relay: str, game: str, levels: tuple[int, int], results: list[list[str]]
) -> None:
    room = fresh_room()
    with (
        bot_process(game, relay, room, levels[0]) as a,
        bot_process(game, relay, room, levels[1]) as b,
    ):
        answers = [a.communicate(timeout=40), b.communicate(timeout=40)]
    assert [a.returncode, b.returncode] == [0, 0], answers
    lines = [out.splitlines() for out, _ in answers]
    assert [len(found) for found in lines] == [1, 1], answers
    verdicts = sorted(found[0].split(": ")[1].split(",")[0] for found in lines)
    assert verdicts in results, answers


def test_bot_without_a_level_plays_the_strongest() -> None:
    assert parse_args(XAND0, ["--bot"]).bot == xand0_bot.MAX_LEVEL
    assert parse_args(CONNECT4, ["--bot", "--room", "r"]).bot == connect4_bot.MAX_LEVEL
    assert parse_args(CONNECT4, ["--bot", "2"]).bot == 2
    assert parse_args(CONNECT4, []).bot is None


def test_a_bot_level_out_of_range_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_args(XAND0, ["--bot", "9"])
    assert exit_.value.code == 2
    assert "--bot LEVEL must be 1 to 3, not 9" in capsys.readouterr().err


async def test_a_bot_whose_search_fails_resigns_instead_of_stalling(relay: str) -> None:
    broken = dataclasses.replace(XAND0, bot=lambda level: functools.partial(Xand0Bot, level=99))
    room = fresh_room()
    session = BotSession(broken, 1)
    partner = RelayHost(relay, "xand0", Xand0Bot, version="1", room=room, timing=FAST)
    async with asyncio.timeout(20):
        mine, theirs = await asyncio.gather(session.play(relay, room, FAST), partner.play())
    assert session.failed
    assert (mine.result, mine.reason, mine.by_me) == (Result.LOST, Reason.RESIGNED, True)
    assert (theirs.result, theirs.reason) == (Result.WON, Reason.RESIGNED)

"""Clocks and correspondence in the terminal clients: both times at each prompt, bots that
budget their thinking by the clock, and a correspondence game listed with --games and taken
up again with --resume from the player key, after the client was closed."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.examples.textclients import bot_process, fresh_room, person, quick_relay
from tests.examples.xand0_moves import CELLS, PROMPT, play_out
from tests.support.relay_process import ROOT


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """Returns the URL of a relay for this module (1 s holds, 3 s grace)."""
    with quick_relay() as url:
        yield url


@pytest.mark.timeout(60)
def test_a_person_on_a_clock_sees_both_times_at_each_prompt(relay: str) -> None:
    room = fresh_room()
    clock = ("--clock", "5+3")
    with bot_process("xand0", relay, room, 1, *clock), person("xand0", relay, room, *clock) as me:
        me.expect_exact("clock 5 min + 3 s")
        me.expect(r"Time left: you (\d+):(\d\d), your opponent (\d+):(\d\d) \(5 min \+ 3 s\)\.")
        mine = int(me.match[1]) * 60 + int(me.match[2])
        theirs = int(me.match[3]) * 60 + int(me.match[4])
        assert 290 <= mine <= 300 and 290 <= theirs <= 303
        me.expect(PROMPT)
        me.sendline(CELLS[4])
        verdict = play_out(me)
    assert verdict in ("You win", "You lose", "A draw")


@pytest.mark.timeout(90)
def test_bots_on_a_short_clock_budget_their_thinking_and_finish_in_time(relay: str) -> None:
    room = fresh_room()
    clock = ("--clock", "0.2")  # 12 s each for a whole game of Connect Four
    with (
        bot_process("connect4", relay, room, 5, *clock) as one,
        bot_process("connect4", relay, room, 5, *clock) as two,
    ):
        outs = [bot.communicate(timeout=80)[0] for bot in (one, two)]
    for out in outs:
        assert out.startswith("Connect Four bot (level 5, "), out
        assert "time" not in out, out  # not "ran out of time"
    assert sorted(out.split(": ")[1].split(",")[0] for out in outs) in (
        ["lost", "won"],
        ["drawn", "drawn"],
    )


def games(relay: str, key: Path) -> str:
    """Returns what `--games` prints for the player key in key."""
    done = subprocess.run(
        [sys.executable, "-m", "examples.xand0", "--relay", relay, "--games",
         "--player-key-file", str(key)],
        cwd=ROOT, capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    return done.stdout


@pytest.mark.timeout(90)
def test_a_correspondence_game_is_listed_and_resumed_after_the_client_closed(
    relay: str, tmp_path: Path
) -> None:
    room, key = fresh_room(), tmp_path / "ann.key"
    corr = ("--clock", "1d", "--player-key-file", str(key))
    with bot_process("xand0", relay, room, 1, "--clock", "1d",
                     "--player-key-file", str(tmp_path / "bot.key")) as bot:  # fmt: skip
        with person("xand0", relay, room, *corr) as me:
            me.expect(r"Time left: you (1 day|23 hours \d+ minutes), your opponent")
            me.expect(PROMPT)
            me.kill(signal.SIGKILL)  # no resignation: the process is simply gone
        # The client is closed on its turn (the laptop lid shut); the match waits for it.
        listed = games(relay, key)
        found = re.search(r"^  (\S+)  your turn, (23 hours \d+ minutes|1 day) left   --resume \1$",
                          listed, re.M)  # fmt: skip
        assert found, listed
        match = found.group(1)
        with person("xand0", relay, None, "--resume", match, "--player-key-file", str(key)) as me:
            me.expect(r"Time left: you")
            verdict = play_out(me)
        out, _ = bot.communicate(timeout=30)
    assert verdict in ("You win", "You lose", "A draw")
    assert out.startswith("X and 0 bot (level 1, ")
    assert re.search(rf"^  {match}  finished \(\w+\)   --replay {match}$", games(relay, key), re.M)

"""A person in Chromium against the Connect Four bot (`python -m examples.connect4 --bot`)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, MakePlayer
from tests.browser.players import Player
from tests.support.relay_process import ROOT, RelayProcess

PREFERENCE = [3, 2, 4, 1, 5, 0, 6]
"""The columns the person plays in turn, centre first, skipping full ones."""

RESULT = re.compile(
    r"^(You win: four in a row|You lose: four in a row|A draw: the board is full)\.$"
)


@pytest.fixture
def bot_log(request: pytest.FixtureRequest) -> Path:
    """Returns where the bot's output goes: beside the test's screenshots."""
    folder = ARTIFACTS / str(request.node.name)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "bot.log"


@pytest.fixture
def bot(relay: RelayProcess, bot_log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Starts the bot seeking a random Connect Four opponent on the relay; stops it by PID."""
    with bot_log.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "examples.connect4", "--relay", relay.url, "--bot", "2"],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        yield process
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def free_column(person: Player, turn: int) -> int:
    """Returns the column of PREFERENCE for this turn, or the next one that is not full."""
    for k in range(len(PREFERENCE)):
        column = PREFERENCE[(turn + k) % len(PREFERENCE)]
        if "full" not in (person.column(column).get_attribute("aria-label") or ""):
            return column
    raise AssertionError("every column is full")


def test_a_person_plays_connect4_against_the_bot_to_the_end(
    player: MakePlayer, bot: subprocess.Popen[bytes], bot_log: Path
) -> None:
    person = player("person")
    person.open("/connect4.html#play")
    body = person.page.locator("body")
    expect(body).to_have_attribute("data-state", re.compile("PLAYING_"))
    person.shot("paired-with-bot")
    for turn in range(22):  # 21 moves at most are the person's
        expect(body).to_have_attribute("data-state", re.compile("PLAYING_TO_MOVE|GAME_ENDED"))
        if body.get_attribute("data-state") == "GAME_ENDED":
            break
        person.drop(free_column(person, turn))
    person.expect_state("GAME_ENDED")
    expect(person.status).to_have_text(RESULT)
    person.shot("finished")
    assert bot.wait(20) == 0, bot_log.read_text(errors="replace")
    assert "Connect Four bot" in bot_log.read_text(errors="replace")

"""The SDK's pytest plugin: a game's test is two lines under plain pytest, no async plugin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sdk import Reason, Result
from sdk.pytest_plugin import PlayMatch
from tests.sdk.count21 import ROOT, example, load
from tests.sdk.counting import Counter, CountReferee, Skipper, refereed

TWO_LINES = """
from count21 import CountTo21
from sdk import Reason


def test_count_to_21_is_agreed(play_match):
    assert play_match(CountTo21).reasons == (Reason.AGREED, Reason.AGREED)
"""


def game_writers_pytest(folder: Path) -> subprocess.CompletedProcess[str]:
    """Runs pytest on folder as a game writer does: no async plugin (the fixture needs none;
    the ones installed here are turned off), and not as a worker of this suite's run."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:asyncio", "-p", "no:aiohttp",
         "-p", "no:anyio", "-p", "no:cacheprovider", "-W", "error", str(folder)],
        cwd=folder,
        env={
            **{key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")},
            "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)]),
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip


def test_a_games_test_is_two_lines_under_plain_pytest(tmp_path: Path) -> None:
    (tmp_path / "count21.py").write_text(example())
    (tmp_path / "test_count21.py").write_text(TWO_LINES)
    run = game_writers_pytest(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_play_match_plays_through_the_sessions_relay(
    play_match: PlayMatch, movewire_relay: str, tmp_path: Path
) -> None:
    count21 = load(tmp_path)
    pair = play_match(count21.CountTo21, count21.CountTo21, game_key="plugin")
    assert pair.reasons == (Reason.AGREED, Reason.AGREED)
    assert sorted(pair.results) == [Result.LOST, Result.WON]
    assert all(host.relay_url == movewire_relay for host in pair.hosts)


REFEREED_CONFTEST = """
import pytest

from tests.sdk.counting import CountReferee


@pytest.fixture(scope="session")
def movewire_referees():
    return {"count": CountReferee}
"""

REFEREED_TEST = """
from sdk import Reason
from tests.sdk.counting import Counter, Skipper, refereed


def test_the_sessions_relay_runs_the_conftests_referee(play_match):
    refereed(play_match(Skipper, Counter, game_key="count"))


def test_a_game_it_does_not_referee_is_only_disputed(play_match):
    pair = play_match(Skipper, Counter, game_key="other")
    assert pair.reasons == (Reason.DISPUTED, Reason.DISPUTED)
"""


def test_a_conftest_gives_the_sessions_relay_its_referees(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(REFEREED_CONFTEST)
    (tmp_path / "test_counting.py").write_text(REFEREED_TEST)
    run = game_writers_pytest(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def test_play_match_given_referees_plays_through_a_relay_that_runs_them(
    play_match: PlayMatch, movewire_relay: str
) -> None:
    pair = play_match(Skipper, Counter, game_key="count", referees={"count": CountReferee})
    refereed(pair)
    assert all(host.relay_url != movewire_relay for host in pair.hosts)

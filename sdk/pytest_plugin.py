"""The SDK's pytest plugin: a relay for the test session and `play_match`, with no async plugin.

Installed with movewire (a `pytest11` entry point), so pytest loads it by itself:

    def test_a_whole_game_is_agreed(play_match):
        assert play_match(MyGame).reasons == (Reason.AGREED, Reason.AGREED)

The session's relay runs the referees `movewire_referees` gives, by game name (none unless a
conftest.py overrides that fixture):

    @pytest.fixture(scope="session")
    def movewire_referees():
        return {"mygame": MygameReferee}

The relay starts on first use only: a test session that uses neither fixture starts none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import pytest

from sdk.game import GameFactory
from sdk.testing import PairResult, Referees, relay_in_thread, run_pair

__all__ = ["PlayMatch", "movewire_referees", "movewire_relay", "play_match"]


class PlayMatch(Protocol):
    """The `play_match` fixture: plays two games against each other through the session's relay."""

    def __call__(
        self, game_a: GameFactory, game_b: GameFactory | None = None, **options: Any
    ) -> PairResult:
        """Returns run_pair(game_a, game_b or game_a, relay_url=the relay, **options); with
        `referees` among the options, through a fresh relay that runs those instead."""


@pytest.fixture(scope="session")
def movewire_referees() -> Referees:
    """Returns the referees the session's relay runs, by game name: none. Override it in a
    conftest.py (scope "session") to run a game's referee: `{"mygame": MygameReferee}`."""
    return {}


@pytest.fixture(scope="session")
def movewire_relay(movewire_referees: Referees) -> Iterator[str]:
    """Returns the URL of a real relay running in a thread for the whole test session, running
    the referees of `movewire_referees`."""
    with relay_in_thread(referees=movewire_referees) as url:
        yield url


@pytest.fixture
def play_match(movewire_relay: str) -> PlayMatch:
    """Returns a function that plays game_a against game_b (game_a again if not given) to the end
    through the session's relay, and returns the PairResult; options as `run_pair`'s. Given
    `referees`, it plays through a fresh relay of its own that runs them."""

    def play(game_a: GameFactory, game_b: GameFactory | None = None, **options: Any) -> PairResult:
        if "referees" in options:
            return run_pair(game_a, game_b or game_a, **options)
        return run_pair(game_a, game_b or game_a, relay_url=movewire_relay, **options)

    return play

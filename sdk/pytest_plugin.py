"""The SDK's pytest plugin: a relay for the test session and `play_match`, with no async plugin.

Installed with movewire (a `pytest11` entry point), so pytest loads it by itself:

    def test_a_whole_game_is_agreed(play_match):
        assert play_match(MyGame).reasons == (Reason.AGREED, Reason.AGREED)

The relay starts on first use only: a test session that uses neither fixture starts none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import pytest

from sdk.game import GameFactory
from sdk.testing import PairResult, relay_in_thread, run_pair

__all__ = ["PlayMatch", "movewire_relay", "play_match"]


class PlayMatch(Protocol):
    """The `play_match` fixture: plays two games against each other through the session's relay."""

    def __call__(
        self, game_a: GameFactory, game_b: GameFactory | None = None, **options: Any
    ) -> PairResult:
        """Returns run_pair(game_a, game_b or game_a, relay_url=the relay, **options)."""


@pytest.fixture(scope="session")
def movewire_relay() -> Iterator[str]:
    """Returns the URL of a real relay running in a thread for the whole test session."""
    with relay_in_thread() as url:
        yield url


@pytest.fixture
def play_match(movewire_relay: str) -> PlayMatch:
    """Returns a function that plays game_a against game_b (game_a again if not given) to the end
    through the session's relay, and returns the PairResult; options as `run_pair`'s."""

    def play(game_a: GameFactory, game_b: GameFactory | None = None, **options: Any) -> PairResult:
        return run_pair(game_a, game_b or game_a, relay_url=movewire_relay, **options)

    return play

"""The six states of a networked game, numbered as in FMNetGames."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["State"]


class State(IntEnum):
    """Where a host is in a match; the host owns it, a game reads it as `host.state`."""

    NOT_CONNECTED = 0
    """Not in a match: before seeking, or after a seek that never found a partner."""
    LISTENING = 1
    """Seeking: waiting for a partner to join."""
    PLAYING_TO_MOVE = 2
    """This side has the turn; the game is enabled and may call `host.move()`."""
    PLAYING_WAIT_MOVE = 3
    """The partner has the turn; the game is disabled."""
    WAITING_SERVER_RESPONSE = 4
    """This side moved; the relay has not yet accepted the move."""
    GAME_ENDED = 5
    """The game is over for this side."""

    def __repr__(self) -> str:
        return f"State.{self.name}"

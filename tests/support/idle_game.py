"""A game for tests that need a player but no rules: it never moves, and implements only what
a game written before passes were events did (no `receive_pass`)."""

from __future__ import annotations

from sdk import Game, State

__all__ = ["Idle"]


class Idle(Game):
    """A player who thinks for ever: never moves."""

    def enable(self) -> None:
        pass

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        return State.PLAYING_TO_MOVE

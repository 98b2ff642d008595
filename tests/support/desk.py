"""A host on the desk, for a game's unit tests: it records what the game sends and shows."""

from __future__ import annotations

from sdk import GameHost, State

__all__ = ["DeskHost"]


class DeskHost(GameHost):
    """A host on the desk: it records what the game sends and shows, and relays nothing.

    It cannot pass a turn (GameHost's default pass_turn raises NotImplementedError)."""

    def __init__(self, state: State = State.PLAYING_TO_MOVE) -> None:
        self.now = state
        self.sent: list[tuple[str, bool]] = []
        self.dialogs: list[str] = []

    @property
    def state(self) -> State:
        return self.now

    def move(self, move: str, end_game: bool = False) -> None:
        self.sent.append((move, end_game))
        self.now = State.PLAYING_WAIT_MOVE

    def show_dialog(self, text: str) -> None:
        self.dialogs.append(text)

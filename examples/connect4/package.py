"""Connect Four as a game package: what the relay reads of it (entry point `connect4` in the group
`movewire.games`): its lobby card, its page folder `page/` served at the relay's root, and its
referee (`referee.py`), which a host turns on with `--referee`."""

from __future__ import annotations

from pathlib import Path

from sdk.package import GamePackage

from .referee import Connect4Referee

__all__ = ["PACKAGE"]

PACKAGE = GamePackage(
    name="connect4",
    title="Connect Four",
    summary="Drop pieces into the columns: four in a row wins.",
    pages=Path(__file__).with_name("page"),
    computer=True,
    view="connect4-game.mjs",
    referee=Connect4Referee,
)

"""Connect Four as a game package: what the relay reads of it (entry point `connect4` in the group
`movewire.games`): its lobby card, and its page folder `page/` served at the relay's root."""

from __future__ import annotations

from pathlib import Path

from sdk.package import GamePackage

__all__ = ["PACKAGE"]

PACKAGE = GamePackage(
    name="connect4",
    title="Connect Four",
    summary="Drop pieces into the columns: four in a row wins.",
    pages=Path(__file__).with_name("page"),
    computer=True,
    view="connect4-game.mjs",
)

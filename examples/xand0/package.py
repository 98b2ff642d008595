"""X and 0 as a game package: what the relay reads of it (entry point `xand0` in the group
`movewire.games`): its lobby card, and its page folder `page/` served at the relay's root."""

from __future__ import annotations

from pathlib import Path

from sdk.package import GamePackage

__all__ = ["PACKAGE"]

PACKAGE = GamePackage(
    name="xand0",
    title="X and 0",
    summary="Noughts and crosses: three in a row wins.",
    pages=Path(__file__).with_name("page"),
    computer=True,
    view="xand0-game.mjs",
)

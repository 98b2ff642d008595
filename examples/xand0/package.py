"""X and 0 as a game package: what the relay reads of it (entry point `xand0` in the group
`movewire.games`): its lobby card, its page folder `page/` served at the relay's root, and its
referee (`referee.py`), which a host turns on with `--referee`."""

from __future__ import annotations

from pathlib import Path

from sdk.package import GamePackage

from .referee import Xand0Referee

__all__ = ["PACKAGE"]

PACKAGE = GamePackage(
    name="xand0",
    title="X and 0",
    summary="Noughts and crosses: three in a row wins.",
    pages=Path(__file__).with_name("page"),
    computer=True,
    view="xand0-game.mjs",
    referee=Xand0Referee,
)

"""Dots and Boxes as a game package: what the relay reads of it (entry point `dots` in the group
`movewire.games`): its lobby card, its page folder `page/` served at the relay's root, and its
referee (`referee.py`), which a host turns on with `--referee`."""

from __future__ import annotations

from pathlib import Path

from sdk.package import GamePackage

from .referee import DotsReferee

__all__ = ["PACKAGE"]

PACKAGE = GamePackage(
    name="dots",
    title="Dots and Boxes",
    summary="Draw lines between the dots: close a box to own it and draw again. Most boxes wins.",
    pages=Path(__file__).with_name("page"),
    computer=False,
    view="dots-game.mjs",
    referee=DotsReferee,
)

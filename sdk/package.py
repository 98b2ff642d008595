"""What a game package declares, so that a relay can serve its page, list it in the lobby and
referee its matches: one GamePackage, named by an entry point in the group `movewire.games`.

    [project.entry-points."movewire.games"]
    mygame = "mygame:PACKAGE"

This module holds only the contract, with no dependency: the relay reads a package by its
fields, and never imports the SDK. See docs/ship-your-game.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sdk.referee import Referee

__all__ = ["ENTRY_POINT_GROUP", "GamePackage"]

ENTRY_POINT_GROUP = "movewire.games"
"""The entry-point group a relay reads its games from."""


@dataclass(frozen=True, slots=True)
class GamePackage:
    """A game as a relay hosts it: its key on the wire, its lobby card, its page and, if it has
    one, its referee."""

    name: str
    """The game's key: the `game` of its seeks, and its entry point's name."""
    title: str
    """Its name as players read it in the lobby: "Connect Four"."""
    summary: str
    """One sentence for its lobby card: how it is played."""
    pages: Path
    """The folder of its page's files, served at the relay's root beside the shared ones."""
    page: str = ""
    """Its page inside `pages` (default `<name>.html`)."""
    computer: bool = False
    """Whether its page offers a game against the computer (`<page>#computer`)."""
    view: str = ""
    """Its page module that the relay's shared pages import to draw its board (the replay
    page), inside `pages`: it exports `GAME` (docs/javascript.md#the-page-kit); "" for none."""
    referee: Callable[[], Referee] | None = None
    """Makes its referee, or None: its matches stay opaque to the relay."""

    @property
    def page_path(self) -> str:
        """Returns the URL path of its page on the relay: `/<name>.html` by default."""
        return "/" + (self.page or f"{self.name}.html")

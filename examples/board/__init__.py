"""The board kit: the shared base of the example board games, public API (docs/kits.md).

Installed as `movewire_games.board`. The names in `__all__` are stable: they change only
with a major version. `BoardGame`, `BoardBot`, `Rules` and the text client's names load on
first use, so that a relay that reads a game's referee does not import the text client.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .protocols import (
    Engine,
    Judge,
    MoveFormatter,
    MoveParser,
    Render,
    StartingPosition,
    TimedEngine,
    Words,
)
from .referee import BoardReferee
from .rules import (
    EMPTY_MARK,
    FIRST,
    MARKS,
    SECOND,
    IllegalMoveError,
    Outcome,
    Player,
    Position,
    Termination,
    TextBoard,
    replay,
)
from .words import BOARD_FULL, end_words

if TYPE_CHECKING:
    from .game import BoardBot, BoardGame, Rules
    from .terminal import text_game

__all__ = [
    "BOARD_FULL",
    "EMPTY_MARK",
    "FIRST",
    "MARKS",
    "SECOND",
    "BoardBot",
    "BoardGame",
    "BoardReferee",
    "Engine",
    "IllegalMoveError",
    "Judge",
    "MoveFormatter",
    "MoveParser",
    "Outcome",
    "Player",
    "Position",
    "Render",
    "Rules",
    "StartingPosition",
    "Termination",
    "TextBoard",
    "TimedEngine",
    "Words",
    "end_words",
    "replay",
    "text_game",
]

_LAZY = {
    "BoardBot": ".game",
    "BoardGame": ".game",
    "Rules": ".game",
    "text_game": ".terminal",
}
"""The names loaded on first use, by the module that holds each."""


def __getattr__(name: str) -> Any:
    """Returns a name of `_LAZY`, importing its module on first use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name], __name__), name)

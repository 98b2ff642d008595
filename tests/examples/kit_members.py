"""The members a board-kit protocol names, shared by the kits' tests."""

from __future__ import annotations

KIT_MODULES = ("examples.board.rules", "examples.board.protocols")
"""The modules whose protocols count: not object's, Protocol's or Generic's members."""


def members(protocol: type) -> set[str]:
    """Returns the members a protocol names, its bases' included (not object's or Protocol's)."""
    names: set[str] = set()
    for cls in protocol.__mro__:
        if cls.__module__ in KIT_MODULES:
            names |= {name for name in vars(cls) if not name.startswith("_")}
    return names

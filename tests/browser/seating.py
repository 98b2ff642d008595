"""Two players seated in a match in the browser tests: which of them moves first, and a
private room they are seated in."""

from __future__ import annotations

from tests.browser.players import Player

__all__ = ["seated", "start_room"]


def seated(a: Player, b: Player) -> tuple[Player, Player]:
    """Returns (the side that moves first, the other) once both are playing."""
    return (a, b) if a.is_first() else (b, a)


def start_room(ann: Player, bob: Player) -> tuple[Player, Player, str]:
    """Seats ann and bob in a private room; returns (the first mover, the other, the match)."""
    ann.open("/xand0.html")
    ann.page.get_by_role("button", name="Create a private room").click()
    link = ann.page.locator("#share-link").input_value()
    bob.open("/xand0.html#" + link.split("#", 1)[1])
    x, o = seated(ann, bob)
    return x, o, x.match_id()

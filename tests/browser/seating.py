"""Two players seated in a match in the browser tests: which of them moves first, a private
room they are seated in, the match a waiting player's seek saved, and a game of X and 0
played to the first mover's win."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.players import Player
from tests.browser.relay_api import WIN

__all__ = ["play_to_a_win", "seated", "start_room", "waiting_match"]


def seated(a: Player, b: Player) -> tuple[Player, Player]:
    """Returns (the side that moves first, the other) once both are playing."""
    return (a, b) if a.is_first() else (b, a)


def play_to_a_win(x: Player, o: Player) -> None:
    """Plays WIN by clicks, x first, each move seen by the other side; both read the end."""
    for i, move in enumerate(WIN):
        mover, other = (x, o) if i % 2 == 0 else (o, x)
        mover.play_cell(move)
        expect(other.cell(move)).to_have_text("X0"[i % 2])
    x.expect_status("You win: three in a row.")
    o.expect_status("You lose: three in a row.")


def start_room(ann: Player, bob: Player) -> tuple[Player, Player, str]:
    """Seats ann and bob in a private room; returns (the first mover, the other, the match)."""
    ann.open("/xand0.html")
    ann.page.get_by_role("button", name="Create a private room").click()
    link = ann.page.locator("#share-link").input_value()
    bob.open("/xand0.html#" + link.split("#", 1)[1])
    x, o = seated(ann, bob)
    return x, o, x.match_id()


def waiting_match(side: Player) -> str:
    """Returns the match of a side's saved seek, once the seek has been answered."""
    side.expect_state("LISTENING")
    # Polled from here: wait_for_function would evaluate its string with eval() in the page
    # after the first try, which the pages' Content-Security-Policy refuses.
    for _ in range(100):
        if side.saved_match() is not None:
            break
        side.page.wait_for_timeout(50)
    saved = side.saved_match()
    assert saved is not None, f"{side} keeps no seek"
    return str(saved["match"])

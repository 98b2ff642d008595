"""A click that cannot play is told why, in real Chromium: out of turn, a full Connect Four
column, a taken X and 0 square; shown beside the board, said by a live region, then gone."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import PHONE, Player


def seated(a: Player, b: Player) -> tuple[Player, Player]:
    """Returns (the side that moves first, the other) once both are playing."""
    return (a, b) if a.is_first() else (b, a)


def expect_hint(side: Player, text: str) -> None:
    """Waits until the hint says `text`, visibly and in a polite live region."""
    hint = side.page.locator("#hint")
    expect(hint).to_have_text(text)
    expect(hint).to_be_visible()
    expect(hint).to_have_attribute("aria-live", "polite")
    box = hint.bounding_box()
    assert box is not None and box["height"] > 10 and box["width"] > 50, box


def test_a_full_column_and_a_move_out_of_turn_are_told_in_connect4(player: MakePlayer) -> None:
    a, b = player("a"), player("b", PHONE)
    a.open("/connect4.html#room=full")
    b.open("/connect4.html#room=full")
    red, yellow = seated(a, b)
    for mover in (red, yellow) * 3:  # column 1 filled, colours alternating: nobody wins
        mover.drop(0)
    red.expect_state("PLAYING_TO_MOVE")
    expect(red.column(0)).to_have_attribute("aria-label", re.compile("full"))
    # No piece hovers over the full column, and a click on it is told.
    red.column(0).hover()
    expect(red.page.locator(".c4-slot").nth(0).locator(".disc")).to_have_count(0)
    red.column(0).click(force=True)
    expect_hint(red, "That column is full.")
    red.expect_state("PLAYING_TO_MOVE")
    red.shot("column-full")
    # Out of turn: told, and nothing is sent.
    yellow.column(3).click(force=True)
    expect_hint(yellow, "Not your turn yet.")
    yellow.expect_state("PLAYING_WAIT_MOVE")
    yellow.shot("not-your-turn")
    # A move played takes the hint away; an unplayed one's hint goes by itself.
    red.drop(3)
    expect(red.page.locator("#hint")).to_have_text("")
    expect(yellow.page.locator("#hint")).to_have_text("", timeout=5000)


def test_a_taken_square_and_a_move_out_of_turn_are_told_in_xand0(player: MakePlayer) -> None:
    a, b = player("a", PHONE), player("b")
    a.open("/xand0.html#room=taken")
    b.open("/xand0.html#room=taken")
    x, o = seated(a, b)
    x.play_cell("11")
    o.expect_state("PLAYING_TO_MOVE")
    o.cell("11").click(force=True)
    expect_hint(o, "That square is taken.")
    x.cell("00").click(force=True)
    expect_hint(x, "Not your turn yet.")
    # The same hint twice is said twice: the live region is emptied and filled again.
    x.page.evaluate(
        """() => { window.heard = [];
          new MutationObserver(() => window.heard.push(document.getElementById('hint').textContent))
            .observe(document.getElementById('hint'), {childList: true, characterData: true,
                                                        subtree: true}); }"""
    )
    x.cell("00").click(force=True)
    expect(x.page.locator("#hint")).to_have_text("Not your turn yet.")
    heard = x.page.evaluate("window.heard")
    assert heard[-2:] == ["", "Not your turn yet."], heard
    o.play_cell("00")
    expect(x.page.locator("#hint")).to_have_text("", timeout=5000)

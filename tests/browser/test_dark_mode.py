"""Dark mode in real Chromium, checked by axe-core: no serious or critical accessibility
violation (text contrast among them) on the lobby and the game pages, at phone and desktop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import report, violations
from tests.browser.conftest import MakePlayer
from tests.browser.players import DESKTOP, PHONE, Player, Viewport

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def dark(player: MakePlayer, name: str, viewport: Viewport) -> Player:
    """Returns a player whose system asks for the dark colour scheme."""
    side = player(name, viewport)
    side.page.emulate_media(color_scheme="dark")
    return side


@pytest.mark.parametrize("viewport", SIZES)
def test_the_lobby_in_dark_mode_has_no_serious_violations(
    player: MakePlayer, viewport: Viewport
) -> None:
    side = dark(player, "lobby", viewport)
    side.open("/")
    expect(side.page.locator("[data-lobby='xand0']")).to_have_attribute(
        "data-version", re.compile(".")
    )
    expect(side.page.locator("li.empty").first).to_have_text("None right now.")
    assert side.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    found = violations(side)
    assert not found, report(found)
    side.shot("dark-lobby")


@pytest.mark.parametrize("viewport", SIZES)
def test_game_pages_in_dark_mode_have_no_serious_violations(
    player: MakePlayer, viewport: Viewport
) -> None:
    a, b = dark(player, "a", viewport), dark(player, "b", viewport)
    for page in ("/xand0.html", "/connect4.html", "/dots.html"):
        a.open(page)
        a.expect_state("IDLE")
        found = violations(a)
        assert not found, f"{page} before a match:\n{report(found)}"
    # A clocked match under way, then over, with a hint shown and both clocks.
    a.open("/connect4.html#room=dark&clock=5%2B3")
    b.open("/connect4.html#room=dark&clock=5%2B3")
    first, second = (a, b) if a.is_first() else (b, a)
    first.drop(3)
    second.expect_state("PLAYING_TO_MOVE")
    first.column(2).click(force=True)  # told it is not its turn: the hint shows
    expect(first.page.locator("#hint")).to_have_text("Not your turn yet.")
    found = violations(first)
    assert not found, f"a match under way:\n{report(found)}"
    first.shot("dark-playing")
    second.page.get_by_role("button", name="Resign").click()
    second.page.get_by_role("button", name="Resign", exact=True).last.click()
    first.expect_state("GAME_ENDED")
    expect(first.page.get_by_role("button", name="Rematch")).to_be_visible()
    found = violations(first)
    assert not found, f"a match over:\n{report(found)}"
    first.shot("dark-ended")

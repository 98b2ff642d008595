"""X and 0 in real Chromium: two players through a real relay, by mouse and by keyboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import PHONE
from tests.browser.seating import seated

WIN = ["00", "10", "11", "20", "22"]
"""X takes the diagonal while O answers on the top row."""

DRAW = ["11", "00", "22", "02", "01", "21", "20", "10", "12"]
"""Nine moves and no line of three."""


def test_two_strangers_from_the_lobby_play_xand0_to_a_win(player: MakePlayer) -> None:
    a, b = player("a"), player("b")
    a.open("/")
    a.shot("lobby")
    a.page.locator("#game-xand0").get_by_role("link", name="Play a random opponent").click()
    a.expect_status("Waiting for an opponent...")
    a.expect_state("LISTENING")
    expect(a.page).to_have_url(re.compile(r"/xand0\.html$"))  # a reload resumes, not re-seeks
    a.shot("waiting")
    b.open("/xand0.html#play")

    x, o = seated(a, b)
    x.expect_status("Your turn.")
    o.expect_status("Opponent's turn...")
    expect(x.page.locator("#you")).to_have_text("You play X, moving first.")
    expect(o.page.locator("#you")).to_have_text("You play 0.")
    for i, move in enumerate(WIN):
        mover, other = (x, o) if i % 2 == 0 else (o, x)
        mover.play_cell(move)
        expect(other.cell(move)).to_have_text("X0"[i % 2])
        expect(other.cell(move)).to_have_class(re.compile(r"\blast\b"))
    x.expect_status("You win: three in a row.")
    o.expect_status("You lose: three in a row.")
    for side in (x, o):
        expect(side.page.locator(".x0-cell.win")).to_have_count(3)
        expect(side.cell("22")).to_have_attribute(
            "aria-label", "Row 3, column 3: X, last move, winning line"
        )
        expect(side.page.locator("#last-move")).to_contain_text("X at row 3, column 3")
        expect(side.page.get_by_role("button", name="Play again")).to_be_visible()
        expect(side.page.get_by_role("button", name="Resign")).to_be_hidden()
    x.shot("won")
    o.shot("lost")


def test_xand0_draw_played_with_the_keyboard_one_side_on_a_phone(player: MakePlayer) -> None:
    desk, phone = player("desktop"), player("phone", PHONE)
    desk.open("/xand0.html#play")
    desk.expect_state("LISTENING")
    phone.open("/xand0.html#play")
    x, o = seated(desk, phone)
    for i, move in enumerate(DRAW):
        mover, other = (x, o) if i % 2 == 0 else (o, x)
        mover.key_to_cell(move)
        expect(other.cell(move)).to_have_text("X0"[i % 2])
    for side in (x, o):
        side.expect_status("A draw: the board is full.")
        expect(side.page.locator(".x0-cell.win")).to_have_count(0)
    assert "Row 2, column 2: X" in phone.board_text()
    assert phone.fits_viewport()
    box = phone.page.locator("#board").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE.width
    phone.shot("draw")
    desk.shot("draw")


@pytest.mark.parametrize("relay", ["/games"], indirect=True)
def test_pages_under_a_path_prefix_reach_the_relay_under_it(player: MakePlayer) -> None:
    a, b = player("a"), player("b")
    a.open("/games/")
    a.page.locator("#game-xand0").get_by_role("link", name="Play a random opponent").click()
    expect(a.page).to_have_url(re.compile(r"/games/xand0\.html$"))
    a.expect_status("Waiting for an opponent...")
    b.open("/games/xand0.html#play")
    x, o = seated(a, b)
    x.play_cell("11")
    expect(o.cell("11")).to_have_text("X")
    o.expect_status("Your turn.")

"""Connect Four in real Chromium: a private room joined by its link, resigning, reloading."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import PHONE, Player

VERTICAL = [3, 4, 3, 4, 3, 4, 3]
"""The first side stacks four in column 3 while the second answers in column 4."""


def seated(a: Player, b: Player) -> tuple[Player, Player]:
    """Returns (the side that moves first, the other) once both are playing."""
    return (a, b) if a.is_first() else (b, a)


def test_private_room_link_joins_the_room_and_connect4_is_played_to_a_win(
    player: MakePlayer,
) -> None:
    host, guest = player("host"), player("guest")
    host.open("/")
    host.page.locator("#game-connect4").get_by_role("button", name="Create a private room").click()
    expect(host.page).to_have_url(re.compile(r"/connect4\.html#room=[a-z0-9]{10}$"))
    host.expect_status("Waiting for an opponent...")
    link = host.page.locator("#share-link")
    expect(link).to_be_visible()
    expect(link).to_have_value(host.page.url)
    host.shot("waiting-with-link")

    guest.open(link.input_value())
    first, second = seated(host, guest)
    expect(host.page.locator("#share")).to_be_hidden()
    expect(first.page.locator("#you")).to_have_text("You play Red, moving first.")

    # The hand: the piece hovers over the column under the pointer, which is highlighted.
    first.column(5).hover()
    expect(first.column(5)).to_have_class(re.compile(r"\bhover\b"))
    expect(first.page.locator(".c4-slot").nth(5).locator(".disc.p0")).to_have_count(1)
    first.shot("hand-over-column-6")
    second.column(5).hover()
    expect(second.page.locator(".c4-col.hover")).to_have_count(0)  # not its turn

    for i, col in enumerate(VERTICAL):
        mover, other = (first, second) if i % 2 == 0 else (second, first)
        mover.drop(col)
        row = sum(1 for c in VERTICAL[: i + 1] if c == col) - 1
        disc = other.column(col).locator(f".c4-cell[data-row='{row}'] .disc")
        expect(disc).to_have_class(re.compile(rf"\bp{i % 2}\b"))
        expect(disc).to_have_class(re.compile(r"\blast\b"))
        if i == 0:
            # The piece falls into place: the drop animation runs, then ends.
            expect(disc).not_to_have_class(re.compile(r"\bdrop\b"))
            assert disc.evaluate("d => getComputedStyle(d).getPropertyValue('--fall')") == "6"
            first.shot("after-first-drop")
    first.expect_status("You win: four in a row.")
    second.expect_status("You lose: four in a row.")
    for side in (first, second):
        expect(side.page.locator(".disc.win")).to_have_count(4)
        expect(side.column(3)).to_have_attribute(
            "aria-label", "Column 4: Red, Red, Red, Red; 2 free; last move"
        )
    first.shot("won")
    second.shot("lost")


def test_resign_ends_the_match_and_play_again_meets_in_the_same_room(
    player: MakePlayer,
) -> None:
    a, b = player("a"), player("b")
    a.open("/connect4.html#room=rematch-den")
    a.expect_status("Waiting for an opponent...")
    b.open("/connect4.html#room=rematch-den")
    first, second = seated(a, b)
    first.drop(3)
    second.drop(2)
    first.expect_state("PLAYING_TO_MOVE")
    before = a.saved_match()
    assert before is not None

    second.page.get_by_role("button", name="Resign").click()
    dialog = second.page.locator("#confirm-resign")
    expect(dialog).to_be_visible()
    second.shot("confirm-resign")
    dialog.get_by_role("button", name="Resign").click()
    second.expect_status("You resigned: your opponent wins.")
    first.expect_status("Your opponent resigned: you win.")
    for side in (first, second):
        side.expect_state("GAME_ENDED")
        expect(side.page.get_by_role("button", name="Resign")).to_be_hidden()
    first.shot("partner-resigned")

    first.page.get_by_role("button", name="Play again").click()
    first.expect_status("Waiting for an opponent...")
    second.page.get_by_role("button", name="Play again").click()
    for side in (first, second):
        expect(side.page.locator("body")).to_have_attribute("data-state", re.compile("PLAYING_"))
        expect(side.page.locator(".disc")).to_have_count(0)
    saved_a, saved_b = a.saved_match(), b.saved_match()
    assert saved_a is not None and saved_b is not None
    assert saved_a["match"] == saved_b["match"] != before["match"]  # a new match, same room
    assert saved_a["room"] == saved_b["room"] == "rematch-den"


def test_reload_mid_match_resumes_the_same_match_and_board(player: MakePlayer) -> None:
    desk, phone = player("desktop"), player("phone", PHONE)
    desk.open("/connect4.html#play")
    desk.expect_state("LISTENING")
    phone.open("/connect4.html#play")
    first, second = seated(desk, phone)
    for i, col in enumerate([3, 3, 2]):
        (first, second)[i % 2].key_to_column(col)
    second.expect_status("Your turn.")
    match = second.saved_match()
    board = second.board_text()
    you = second.page.locator("#you").inner_text()

    second.page.reload()
    second.expect_status("Your turn.")
    assert second.saved_match() == match
    assert second.board_text() == board
    expect(second.page.locator("#you")).to_have_text(you)
    expect(second.column(2).locator(".disc.last")).to_have_count(1)
    second.shot("after-reload")

    second.drop(4)
    first.expect_status("Your turn.")
    second.page.reload()  # reloading while waiting for the partner is as good
    second.expect_status("Opponent's turn...")
    assert second.saved_match() == match
    first.drop(1)  # Red: 3, 2, 1 on the bottom row
    second.drop(6)
    first.key_to_column(0)  # and 0 makes four
    first.expect_status("You win: four in a row.")
    second.expect_status("You lose: four in a row.")
    assert first.fits_viewport() and second.fits_viewport()
    phone.shot("finished")
    desk.shot("finished")

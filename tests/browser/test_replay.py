"""The replay page in real Chromium: a finished match stepped through by keyboard, a live one
followed as it is played, at desktop and phone sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import DESKTOP, PHONE, Viewport
from tests.browser.relay_api import WIN, call, xand0_match
from tests.support.relay_process import RelayProcess


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_finished_match_is_stepped_through_by_keyboard(
    player: MakePlayer, relay: RelayProcess, viewport: Viewport
) -> None:
    match, _ = xand0_match(relay, WIN, end=True)
    viewer = player("viewer", viewport)
    viewer.open(f"/replay.html#match={match}")
    expect(viewer.page.locator("#title")).to_have_text("Replay: X and 0")
    expect(viewer.status).to_have_text("X won: 0 agreed the game was over.")
    expect(viewer.page.locator(".x0-cell.win")).to_have_count(3)
    viewer.shot("end")
    viewer.page.keyboard.press("Home")
    expect(viewer.page.locator("#position")).to_have_text("Start: 5 moves in all.")
    expect(viewer.page.locator(".x0-cell[data-mark='']")).to_have_count(9)
    for step, move in enumerate(WIN[:3], start=1):
        viewer.page.keyboard.press("ArrowRight")
        expect(viewer.cell(move)).to_have_attribute("data-mark", "X0"[(step - 1) % 2])
    expect(viewer.page.locator("#position")).to_have_text(
        "Move 3 of 5: X played at row 2, column 2."
    )
    expect(viewer.cell(WIN[3])).to_have_attribute("data-mark", "")
    viewer.page.keyboard.press("ArrowLeft")
    expect(viewer.cell(WIN[2])).to_have_attribute("data-mark", "")
    expect(viewer.page.get_by_role("button", name="Back")).to_be_enabled()
    viewer.page.keyboard.press("End")
    expect(viewer.page.get_by_role("button", name="Forward")).to_be_disabled()
    viewer.shot("stepped")
    assert viewer.fits_viewport()


def test_a_live_match_is_followed_as_it_is_played(player: MakePlayer, relay: RelayProcess) -> None:
    match, tokens = xand0_match(relay, WIN[:2], end=False)
    viewer = player("spectator")
    viewer.open(f"/replay.html#match={match}")
    expect(viewer.status).to_have_text("Still being played: new moves appear as they are made.")
    expect(viewer.page.locator("#position")).to_have_text(
        "Move 2 of 2: 0 played at row 1, column 2."
    )
    call(relay, f"/v1/matches/{match}/moves", {"after": 3, "move": WIN[2]}, tokens[0])
    expect(viewer.cell(WIN[2])).to_have_attribute("data-mark", "X")
    expect(viewer.page.locator("#position")).to_contain_text("Move 3 of 3")
    call(relay, f"/v1/matches/{match}/resign", {}, tokens[1])
    expect(viewer.status).to_have_text("X won: 0 resigned.")
    viewer.shot("followed")


def test_an_unknown_match_is_said_plainly(player: MakePlayer) -> None:
    viewer = player("lost")
    viewer.open("/replay.html#match=no-such-match")
    expect(viewer.status).to_contain_text("No match 'no-such-match'")
    # Chromium logs the record's 404 itself: the one error this test asks for.
    assert [error for error in viewer.errors if "404" in error] == viewer.errors != []
    viewer.errors.clear()

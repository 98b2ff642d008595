"""Layouts in real Chromium: a phone's two clocks of one width, the replay's buttons on one
line, and after a clocked match on a 1280x800 laptop, Rematch in sight and the main button."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import PHONE, Player, Viewport
from tests.browser.relay_api import WIN, call, xand0_match
from tests.support.relay_process import RelayProcess

LAPTOP = Viewport(1280, 800)
"""A laptop screen's window."""


def box_of(locator: Locator) -> dict[str, float]:
    """Returns an element's box on the page (a hang fails by name)."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box is not None, locator
    return {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]}


def seated(a: Player, b: Player) -> tuple[Player, Player]:
    """Returns (the side that moves first, the other) once both are playing."""
    return (a, b) if a.is_first() else (b, a)


def start_clocked(a: Player, b: Player, page: str, room: str) -> tuple[Player, Player]:
    """Starts a 5 min + 3 s match in a private room; returns (first mover, second)."""
    a.open(f"{page}#room={room}&clock=5%2B3")
    b.open(f"{page}#room={room}&clock=5%2B3")
    return seated(a, b)


def test_a_phones_two_clocks_are_as_wide_as_each_other(player: MakePlayer) -> None:
    phone, desk = player("phone", PHONE), player("desk")
    start_clocked(phone, desk, "/xand0.html", "clocks")
    clocks = phone.page.locator("#clocks .clock")
    expect(clocks.nth(1).locator(".clock-who")).to_have_text(re.compile(r"^Opponent \((X|0)\)$"))
    mine, theirs = box_of(clocks.nth(0)), box_of(clocks.nth(1))
    assert abs(mine["width"] - theirs["width"]) <= 1, (mine, theirs)
    assert abs(mine["height"] - theirs["height"]) <= 1, (mine, theirs)
    assert mine["x"] >= 0 and theirs["x"] + theirs["width"] <= PHONE.width
    assert phone.fits_viewport()
    phone.shot("clocks")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_replays_four_buttons_stay_on_one_line(
    player: MakePlayer, relay: RelayProcess, viewport: Viewport
) -> None:
    match, _ = xand0_match(relay, WIN, end=True)
    viewer = player("viewer", viewport)
    viewer.open(f"/replay.html#match={match}")
    expect(viewer.page.locator("#position")).to_contain_text("Move 5 of 5")
    boxes = [
        box_of(viewer.page.get_by_role("button", name=name, exact=True))
        for name in ("First", "Back", "Forward", "Last")
    ]
    # One row, and no button's word wrapped inside it (all of one height).
    assert len({round(box["y"]) for box in boxes}) == 1, boxes
    assert len({round(box["height"]) for box in boxes}) == 1, boxes
    lines = viewer.page.get_by_role("button", name="Last", exact=True).evaluate(
        "b => b.getClientRects().length === 1 && b.scrollWidth <= b.clientWidth"
    )
    assert lines, "the Last button's word does not fit it"
    assert viewer.fits_viewport()
    viewer.shot("replay-buttons")


def is_primary(button: Locator) -> bool:
    """Returns whether a button wears the main button's colours (the accent)."""
    return bool(
        button.evaluate(
            """b => {
              const probe = document.createElement("button");
              probe.className = "primary";
              document.body.append(probe);
              const accent = getComputedStyle(probe).backgroundColor;
              probe.remove();
              return getComputedStyle(b).backgroundColor === accent;
            }"""
        )
    )


def test_after_a_clocked_connect4_match_on_a_laptop_rematch_shows_unscrolled_as_the_main_button(
    player: MakePlayer,
) -> None:
    a, b = player("a", LAPTOP), player("b", LAPTOP)
    red, yellow = start_clocked(a, b, "/connect4.html", "fold")
    red.drop(3)
    yellow.drop(3)
    expect(red.page.locator("#clocks")).to_be_visible()
    red.page.get_by_role("button", name="Resign").click()
    red.page.get_by_role("button", name="Resign", exact=True).last.click()
    for side in (red, yellow):
        side.expect_state("GAME_ENDED")
        side.page.evaluate("window.scrollTo(0, 0)")
        rematch = side.page.get_by_role("button", name="Rematch")
        again = side.page.get_by_role("button", name="Play again")
        expect(rematch).to_be_visible()
        expect(again).to_be_visible()
        shown = box_of(rematch)
        assert shown["y"] + shown["height"] <= LAPTOP.height, shown  # no scrolling needed
        assert box_of(again)["y"] + box_of(again)["height"] <= LAPTOP.height
        assert is_primary(rematch) and not is_primary(again)
        # Rematch comes first: above, or before it on the same line.
        assert (shown["y"], shown["x"]) < (box_of(again)["y"], box_of(again)["x"])
        expect(side.page.locator("#clocks")).to_be_visible()
        side.shot("ended")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "desktop"])
def test_a_long_name_stays_inside_its_lobby_row_beside_the_watch_button(
    player: MakePlayer, relay: RelayProcess, viewport: Viewport
) -> None:
    # Two seekers of the longest names a relay takes, with no space to break them at.
    opened = call(relay, "/v1/seek", {"game": "xand0", "version": "1", "public": True,
                                      "name": "W" * 32})  # fmt: skip
    call(relay, "/v1/seek", {"game": "xand0", "version": "1", "name": "M" * 32})
    # Seat 0 polls again, as a live client does: that starts the paired match.
    call(relay, f"/v1/matches/{opened['match']}/events?after=0&wait=0", token=opened["token"])
    viewer = player("viewer", viewport)
    viewer.open("/")
    row = viewer.page.locator(f"#game-xand0 .live-list li[data-match='{opened['match']}']")
    watch = box_of(row.locator("a"))
    line = box_of(row)
    # Nothing spills out of the row, or under its button: each name is cut with an ellipsis
    # inside its own box, the whole name in its title.
    assert row.evaluate("li => li.scrollWidth <= li.clientWidth")
    assert watch["x"] + watch["width"] <= line["x"] + line["width"] + 0.5
    names = row.locator(".shown-name")
    assert names.count() == 2
    for n, whole in enumerate(("W" * 32, "M" * 32)):
        name = names.nth(n)
        assert name.get_attribute("title") == whole
        assert name.evaluate("span => getComputedStyle(span).textOverflow") == "ellipsis"
        assert name.evaluate("span => span.scrollWidth > span.clientWidth")  # cut, not wrapped
        assert box_of(name)["x"] + box_of(name)["width"] <= watch["x"] + 0.5
    # The words beside the names (the start, the moves) end before the button too.
    text_right = row.evaluate(
        """li => { const words = li.querySelector('.entry-words');
                   const range = document.createRange(); range.selectNodeContents(words);
                   const shown = [...range.getClientRects()].filter((r) => r.width > 0);
                   const boxes = [...words.querySelectorAll('.shown-name')]
                     .map((span) => span.getBoundingClientRect());
                   const inName = (r) => boxes.some(
                     (b) => r.left >= b.left - 0.5 && r.left < b.right && r.top >= b.top - 0.5);
                   return Math.max(...shown.filter((r) => !inName(r)).map((r) => r.right)); }"""
    )
    assert text_right <= watch["x"] + 0.5
    viewer.shot("lobby-long-names")

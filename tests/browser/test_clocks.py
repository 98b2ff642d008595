"""Clocks in real Chromium: a control chosen when seeking, both clocks shown and the seat to
move's ticking down, at desktop and phone size, through a real relay."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import PHONE, Player

TICK = 5000
"""Milliseconds a running clock may take to show a second less."""


def seated(a: Player, b: Player) -> tuple[Player, Player]:
    """Returns (the side that moves first, the other) once both are playing."""
    return (a, b) if a.is_first() else (b, a)


def clock(side: Player, nth: int) -> tuple[str, str, bool]:
    """Returns (who, time, running) of a player's clock: 0 its own, 1 its opponent's."""
    row = side.page.locator("#clocks .clock").nth(nth)
    who = row.locator(".clock-who").inner_text()
    return who, row.locator(".clock-time").inner_text(), row.get_attribute("data-running") == "true"


def test_a_fischer_match_shows_both_clocks_ticking_on_desktop_and_phone(
    player: MakePlayer,
) -> None:
    desk, phone = player("desktop"), player("phone", PHONE)
    desk.open("/xand0.html")
    expect(desk.page.locator("#clocks")).to_be_hidden()
    desk.page.get_by_label("Clock").select_option(label="5 min + 3 s")
    desk.page.get_by_role("button", name="Create a private room").click()
    desk.expect_state("LISTENING")
    link = desk.page.locator("#share-link").input_value()
    assert link.endswith("&clock=5%2B3"), link
    phone.open("/xand0.html#" + link.split("#", 1)[1])
    x, o = seated(desk, phone)
    for side in (x, o):
        expect(side.page.locator("#clocks")).to_be_visible()
        expect(side.page.locator("#clocks .clock")).to_have_count(2)
    expect(x.page.locator("#clocks .clock").nth(0)).to_have_attribute("data-running", "true")
    expect(o.page.locator("#clocks .clock").nth(1)).to_have_attribute("data-running", "true")
    # X's clock runs down on both screens; O's stays at 5:00.
    expect(x.page.locator("#clocks .clock-time").nth(0)).to_have_text(
        re.compile(r"4:5\d"), timeout=TICK
    )
    expect(o.page.locator("#clocks .clock-time").nth(1)).to_have_text(
        re.compile(r"4:5\d"), timeout=TICK
    )
    assert clock(o, 0)[:2] == ("You (0)", "5:00")
    assert clock(x, 1)[:2] == ("Opponent (0)", "5:00")
    expect(x.page.locator(".clock-spoken")).to_have_text("Your clock: 4 minutes left.")
    x.shot("fischer-clocks")
    phone.shot("fischer-clocks")
    assert phone.fits_viewport()
    box = phone.page.locator("#clocks").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE.width

    x.play_cell("11")
    expect(o.page.locator("#clocks .clock").nth(0)).to_have_attribute("data-running", "true")
    expect(o.page.locator("#clocks .clock-time").nth(0)).to_have_text(
        re.compile(r"4:5\d"), timeout=TICK
    )
    expect(x.page.locator("#clocks .clock").nth(0)).to_have_attribute("data-running", "false")
    # X gained its 3 s increment: back near 5:00.
    expect(x.page.locator("#clocks .clock-time").nth(0)).to_have_text(re.compile(r"5:0\d|4:5\d"))
    o.page.get_by_role("button", name="Resign").click()
    o.page.get_by_role("button", name="Resign", exact=True).last.click()
    x.expect_status("Your opponent resigned: you win.")
    stopped = x.page.locator("#clocks .clock-time").nth(1).inner_text()
    x.page.wait_for_timeout(1500)
    assert x.page.locator("#clocks .clock-time").nth(1).inner_text() == stopped
    assert x.page.locator('#clocks .clock[data-running="true"]').count() == 0


def test_a_correspondence_match_shows_days_and_hours(player: MakePlayer) -> None:
    a, b = player("a"), player("b", PHONE)
    for side in (a, b):
        side.open("/xand0.html")
        side.page.get_by_label("Clock").select_option(label="3 days a move")
    a.page.get_by_role("button", name="Play a random opponent").click()
    a.expect_state("LISTENING")
    b.page.get_by_role("button", name="Play a random opponent").click()
    x, o = seated(a, b)
    days = re.compile(r"^(3 days|2 days 23 hours)$")
    for side in (x, o):
        expect(side.page.locator("#clocks .clock-time").nth(0)).to_have_text(days)
        expect(side.page.locator("#clocks .clock-time").nth(1)).to_have_text(days)
    expect(x.page.locator(".clock-spoken")).to_have_text(
        re.compile(r"^Your clock: (3 days|2 days 23 hours) left\.$")
    )
    expect(o.page.locator(".clock-spoken")).to_have_text("")
    x.shot("correspondence-clocks")
    o.shot("correspondence-clocks")

"""Dots and Boxes in real Chromium: two players through a real relay; whoever closes a box
draws again (the partner's host passes), and the boxes are counted at the end."""

from __future__ import annotations

import json
import re
import time
import urllib.request

from playwright.sync_api import expect

from tests.browser.conftest import WAIT_MS, MakePlayer
from tests.browser.players import Player
from tests.support.relay_process import RelayProcess

ORDER = [f"h{r}{c}" for r in range(4) for c in range(3)] + [
    f"v{r}{c}" for r in range(3) for c in range(4)
]
"""The lines in the order the players draw them: every horizontal line, then the verticals,
which close boxes one after another."""


def next_mover(*sides: Player) -> Player:
    """Returns the side whose turn it is, once one has it (a hang fails by name)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        for side in sides:
            if side.page.locator("body").get_attribute("data-state") == "PLAYING_TO_MOVE":
                return side
        sides[0].page.wait_for_timeout(20)
    raise AssertionError(f"neither side got the turn within {WAIT_MS} ms")


def test_two_players_play_dots_and_boxes_with_a_closed_box_drawing_again(
    player: MakePlayer, relay: RelayProcess
) -> None:
    a, b = player("a"), player("b")
    a.open("/")
    a.page.locator("#game-dots").get_by_role("link", name="Play a random opponent").click()
    a.expect_state("LISTENING")
    b.open("/dots.html#play")
    x, o = (a, b) if a.is_first() else (b, a)
    x.expect_status("Your turn.")
    movers = []
    for line in ORDER:
        mover = next_mover(x, o)
        mover.page.locator(f'[data-line="{line}"]').click()
        movers.append(mover.name)
        for side in (x, o):
            expect(side.page.locator(f'[data-line="{line}"]')).to_have_class(re.compile("drawn"))
    for side in (x, o):
        side.expect_state("GAME_ENDED")
    again = [i for i in range(1, len(movers)) if movers[i] == movers[i - 1]]
    assert again, movers  # a box closed: its closer drew the next line too
    verdicts = {x.status.inner_text(), o.status.inner_text()}
    assert verdicts == {"You win!", "You lose."}
    for side in (x, o):
        expect(side.page.locator(".dots-box[data-owner]:not([data-owner=''])")).to_have_count(9)
    saved = x.saved_match()
    assert saved is not None
    with urllib.request.urlopen(f"{relay.url}/v1/matches/{saved['match']}/events?after=0") as r:
        events = json.load(r)["events"]
    assert [e["type"] for e in events].count("pass") == len(again)
    assert events[-1]["reason"] == "agreed"
    x.shot("finished")

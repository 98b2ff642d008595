"""No ghost at the table, in real Chromium: a waiting seeker whose renderer crashed, whose
browser went offline or whose network died silently (packets dropped, no FIN) is never
paired. A new seeker who comes at once is seated with it for a moment, never sees it, and is
paired with the next live player instead. In play, a silent cut is told to both sides within
10 s."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import ARTIFACTS, MakePlayer
from tests.browser.faults import RECONNECTING
from tests.browser.players import Player
from tests.browser.relay_api import match_status
from tests.browser.seating import seated, waiting_match
from tests.support.cut_proxy import CutProxy
from tests.support.relay_process import RelayProcess

GONE = "console: Failed to load resource: the server responded with a status of 410 (Gone)"
"""Chromium's console report of a request answered 410."""

WATCHED_S = 6.0
"""How long the new seeker is watched: past the pair window (3 s) and the reaper's turn."""


@pytest.fixture
def ghost_side(browser: Browser, relay: RelayProcess) -> Iterator[tuple[Player, CutProxy]]:
    """Returns a player whose page reaches the relay through a proxy that can cut its link."""
    with CutProxy(relay.port) as proxy:
        context = browser.new_context(base_url=proxy.url)
        try:
            yield Player(context.new_page(), "ghost", ARTIFACTS / "ghosts"), proxy
        finally:
            context.close()


@pytest.mark.parametrize("how", ["crashed", "offline", "cut"])
def test_a_new_seeker_at_once_is_never_paired_with_a_ghost(
    player: MakePlayer,
    relay: RelayProcess,
    ghost_side: tuple[Player, CutProxy],
    how: str,
) -> None:
    ghost, proxy = ghost_side
    ghost.open("/xand0.html#play")
    haunted = waiting_match(ghost)
    if how == "crashed":  # the renderer dies: no pagehide, no withdrawal
        with pytest.raises(PlaywrightError, match="crash"):
            ghost.page.goto("chrome://crash", timeout=10_000)
    elif how == "offline":
        ghost.page.context.set_offline(True)
    else:
        proxy.cut()

    # 0 s later, a new seeker: seated in the ghost's match for a moment, never shown it.
    bob = player("bob")
    bob.open("/xand0.html#play")
    began = time.monotonic()
    states, statuses = set(), set()
    while time.monotonic() - began < WATCHED_S:
        states.add(bob.page.locator("body").get_attribute("data-state"))
        statuses.add(match_status(relay, haunted))
        bob.page.wait_for_timeout(100)
    assert states == {"LISTENING"}, states
    assert "playing" not in statuses and match_status(relay, haunted) == "match/expired"
    bob.expect_status("Waiting for an opponent...")
    mine = waiting_match(bob)
    assert mine != haunted

    # Chromium logs the one refusal the page met: its poll of the ghost's match, answered
    # 410 as the pairing expired, after which the page sought again by itself.
    assert bob.errors == [GONE], bob.errors
    bob.errors.clear()

    # The next live player meets bob, who never knew.
    cat = player("cat")
    cat.open("/xand0.html#play")
    x, o = seated(bob, cat)
    assert bob.match_id() == cat.match_id() == mine
    x.play_cell("11")
    o.expect_state("PLAYING_TO_MOVE")


PRESENCE_WITHIN_S = 10.0
"""How soon after a silent cut both sides must be told: the partner that the player is
away, the player that its own connection is lost."""


def test_a_silent_cut_in_play_is_told_to_both_sides_within_10_s(
    player: MakePlayer, ghost_side: tuple[Player, CutProxy]
) -> None:
    ann, proxy = ghost_side
    bob = player("bob")
    ann.open("/xand0.html#play")
    waiting_match(ann)
    bob.open("/xand0.html#play")
    if seated(ann, bob)[0] is bob:  # ann's turn when her network dies
        bob.play_cell("11")
    ann.expect_state("PLAYING_TO_MOVE")
    ann.expect_status("Your turn.")

    proxy.cut()
    cut = time.monotonic()
    presence, status = bob.page.locator("#presence"), ann.status
    away_after = told_after = None
    while (away_after is None or told_after is None) and time.monotonic() - cut < 15:
        now = time.monotonic() - cut
        if away_after is None and "disconnected" in presence.inner_text():
            away_after = now
        if told_after is None and status.inner_text() == RECONNECTING:
            told_after = now
        bob.page.wait_for_timeout(100)
    print(f"\nafter a silent cut: away for the partner after {away_after} s,", end=" ")
    print(f"reconnecting for the player after {told_after} s")
    figures = f"away for the partner after {away_after} s, told the player after {told_after} s"
    assert away_after is not None and away_after <= PRESENCE_WITHIN_S, figures
    assert told_after is not None and told_after <= PRESENCE_WITHIN_S, figures

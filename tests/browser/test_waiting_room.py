"""The waiting room in real Chromium: Cancel offered as soon as the seek is saved, and a seek
withdrawn when its page is left, so that nobody is paired with a player who has gone."""

from __future__ import annotations

import os
import re
import time

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import ARTIFACTS, MakePlayer
from tests.browser.players import Player
from tests.browser.relay_api import match_status, moves_of, until_status
from tests.browser.seating import seated, waiting_match
from tests.support.relay_process import RelayProcess

CANCEL_WITHIN_MS = 2_000
"""How soon after the seek's answer the Cancel button must show."""


@pytest.mark.parametrize("how", ["random", "private"])
def test_cancel_shows_as_soon_as_the_seek_is_saved_and_withdraws_it(
    player: MakePlayer, relay: RelayProcess, how: str
) -> None:
    ann = player("ann")
    ann.open("/xand0.html")
    name = "Play a random opponent" if how == "random" else "Create a private room"
    ann.page.get_by_role("button", name=name).click()
    ann.expect_status("Waiting for an opponent...")
    cancel = ann.page.get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible(timeout=CANCEL_WITHIN_MS)
    match = waiting_match(ann)
    assert match_status(relay, match) == "waiting"
    ann.shot(f"waiting-{how}")

    cancel.click()
    expect(ann.page.locator("#start")).to_be_visible()
    ann.expect_status("Choose how to play.")
    expect(cancel).to_be_hidden()
    expect(ann.page).to_have_url(re.compile(r"/xand0\.html$"))  # no room left in the address
    assert ann.saved_match() is None
    until_status(relay, match, "match/expired")


@pytest.mark.parametrize("leave", ["navigate", "close"])
def test_a_seek_whose_page_is_left_is_withdrawn_and_its_ghost_meets_nobody(
    player: MakePlayer, relay: RelayProcess, leave: str
) -> None:
    ann, bob, cat = player("ann"), player("bob"), player("cat")
    ann.open("/xand0.html#play")
    ghost = waiting_match(ann)
    if leave == "navigate":
        ann.open("/")
    else:
        ann.page.close(run_before_unload=True)
    # The relay keeps a silent seeker for its grace period (30 s here): only the page's own
    # withdrawal, sent as it goes, ends the seek this soon.
    until_status(relay, ghost, "match/expired")

    bob.open("/xand0.html#play")
    mine = waiting_match(bob)
    assert mine != ghost
    bob.page.wait_for_timeout(1_000)
    bob.expect_state("LISTENING")
    bob.expect_status("Waiting for an opponent...")

    cat.open("/xand0.html#play")
    x, o = seated(bob, cat)
    x.play_cell("11")
    expect(o.cell("11")).to_have_text("X")
    assert [event["move"] for event in moves_of(relay, mine)] == ["11"]


def test_a_reload_while_waiting_keeps_waiting(player: MakePlayer, relay: RelayProcess) -> None:
    ann, bob = player("ann"), player("bob")
    ann.open("/xand0.html")
    ann.page.get_by_role("button", name="Create a private room").click()
    first = waiting_match(ann)
    link = ann.page.locator("#share-link").input_value()
    ann.page.reload()
    ann.expect_status("Waiting for an opponent...")
    again = waiting_match(ann)
    expect(ann.page.get_by_role("button", name="Cancel")).to_be_visible()
    assert match_status(relay, again) == "waiting"
    assert match_status(relay, first) in ("waiting", "match/expired")

    bob.open("/xand0.html#" + link.split("#", 1)[1])
    seated(ann, bob)
    assert ann.match_id() == bob.match_id() == again


CLOSES = int(os.environ.get("MOVEWIRE_PHANTOM_CLOSES", "20"))
"""Waiting pages closed in the phantom-seek test, 10 at a time: 20 in the suite, which must
keep to its time on two cores (each page is a renderer of its own); 50 with
MOVEWIRE_PHANTOM_CLOSES=50, as docs/reliability.md reports."""


def _until_logged(relay: RelayProcess, request: str, count: int, within: float = 10.0) -> None:
    """Returns once the relay's log holds `count` lines of `request`, or after `within`
    seconds (the caller's assertion then says what is missing)."""
    deadline = time.monotonic() + within
    while relay.log().count(request) < count and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_waiting_page_closed_again_and_again_never_seeks_after_its_cancel(
    browser: Browser, relay: RelayProcess
) -> None:
    # A closing page withdraws its seek; its held poll, answered "expired" by that, must not
    # make the page seek afresh as it dies (a seek nobody would ever play). Each page has a
    # context of its own: a context's six connections would not hold ten pages' polls.
    matches: list[str] = []
    for _ in range(CLOSES // 10):
        contexts = [browser.new_context(base_url=relay.url) for _ in range(10)]
        try:
            pages = [context.new_page() for context in contexts]
            for page in pages:  # loaded side by side
                page.goto("/xand0.html", wait_until="commit")
            for page in pages:  # private rooms: the pages must not meet each other
                page.get_by_role("button", name="Create a private room").click()
            for page in pages:
                matches.append(waiting_match(Player(page, "ann", ARTIFACTS)))
            for page in pages:
                page.close(run_before_unload=True)
            # A tab closes in a browser that goes on: each page's unload, and the cancel it
            # sends, is over before its context is closed, which would cut the cancel short.
            for page in pages:
                if not page.is_closed():
                    page.wait_for_event("close", timeout=10_000)
            _until_logged(relay, "/cancel HTTP/1.1", len(matches))
        finally:
            for context in contexts:
                context.close()
    assert len(set(matches)) == CLOSES
    for match in matches:
        until_status(relay, match, "match/expired")
    # A seek sent after its page's cancel would show here, at once or a moment later.
    time.sleep(1.0)
    log = relay.log()
    seeks, cancels = log.count('"POST /v1/seek '), log.count("/cancel HTTP/1.1")
    assert (seeks, cancels) == (CLOSES, CLOSES), log[-3000:]

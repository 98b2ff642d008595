"""The way back to a match whose tab was closed, in real Chromium: a player closes the tab of a
rated match of X and 0 (a seat listed under its browser's player key), opens the lobby in a new
tab of the same browser, reads "Your match of X and 0 is on: go back" with the seconds left to
come back counting down, follows it by keyboard, and plays on from the board as it was; the
opponent sees the player back. The lobby's reads never make the seat look present. A finished
match and a correspondence match of the same key have no way back, and a way back goes once its
match ends, without a reload.

A casual match (no player key) has the same way back, by the ticket the game page keeps in
localStorage from the match's start to its end: never for a seek still waiting, never in the
link, and forgotten once the match ends; the lobby forgets those of matches ended or unknown."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Locator, expect

from tests.browser.axe import no_severe_violations
from tests.browser.conftest import MakePlayer
from tests.browser.keyboard import reach_by_tab
from tests.browser.players import Player
from tests.browser.relay_api import WIN, call, match_status, xand0_match
from tests.browser.seating import seated
from tests.support.relay_process import RelayProcess

RATED = "/xand0.html#play&rated=1"
"""A random opponent, rated: the seek carries the browser's player key (a casual one has none)."""

CASUAL = "/xand0.html#play"
"""A random opponent, casual: the seek carries no player key."""

LIVE = "movewire.live"
"""The localStorage key of the live matches' tickets a browser keeps (page-links.mjs)."""

NOT_FOUND = (
    "console: Failed to load resource: the server responded with a status of 404 (Not Found)"
)
"""What Chromium logs of a request the relay answers 404."""

AWAY_WITHIN_MS = 8_000
"""How soon a closed tab shows away: the relay's 3 s, a second of its own, and a poll's wake."""

READ_AGAIN_MS = 8_000
"""How soon the lobby's notices follow the relay: its reads every 5 s, and a margin."""

LEFT = re.compile(r"^(\d+) s left to come back$")

WORDS = "Your match of X and 0 is on: go back"

SAID = "Your match of X and 0 is on: "
"""What the live region says of it, before the time left."""

DAY = {"kind": "deadline", "per_move": 86400}
"""One day a move: a correspondence match."""


def reopen(side: Player) -> Player:
    """Closes the side's tab (its game page withdraws a seek, never a started match) and opens
    another in the same browser: the same localStorage (the same player key), none of the
    closed tab's sessionStorage. Returns the player in the new tab."""
    context = side.page.context
    side.page.close()
    return Player(context.new_page(), side.name, side.shots)


def another_tab(side: Player, name: str) -> Player:
    """Returns the player in one more tab of the same browser."""
    return Player(side.page.context.new_page(), name, side.shots)


def keyed_match(relay: RelayProcess, key: str, room: str, **more: Any) -> tuple[str, str]:
    """Starts a match of X and 0 through the relay, in a room, its first seat sought with the
    player key; returns the match and the partner's token."""
    seek = {"game": "xand0", "version": "1", "room": room, **more}
    mine = call(relay, "/v1/seek", {**seek, "player": key})
    theirs = call(relay, "/v1/seek", seek)
    match = str(mine["match"])
    # The match starts once its first seat polls again (only live players are paired).
    call(relay, f"/v1/matches/{match}/events?after=0&wait=0", token=mine["token"])
    assert match_status(relay, match) == "playing"
    return match, str(theirs["token"])


def live_tickets(side: Player) -> list[dict[str, Any]]:
    """Returns the live matches' tickets the side's browser keeps (localStorage)."""
    raw = side.page.evaluate(f"localStorage.getItem('{LIVE}')")
    return [] if raw is None else [dict(ticket) for ticket in json.loads(raw)]


def seconds(left: Locator) -> int:
    """Returns the seconds a countdown shows."""
    found = LEFT.match(left.inner_text())
    assert found is not None, left.inner_text()
    return int(found.group(1))


def plays_on(back: Player, other: Player, presence: Locator) -> None:
    """Checks that a page took its match up as it was (X on 11, 0 on 00, X to move), that the
    opponent sees it back, and that its next move reaches the opponent."""
    back.expect_state("PLAYING_TO_MOVE")
    expect(back.cell("11")).to_have_text("X")
    expect(back.cell("00")).to_have_text("0")
    expect(presence).to_have_text("Opponent is back")
    back.play_cell("22")
    expect(other.cell("22")).to_have_text("X")


def test_a_closed_tab_goes_back_to_its_match_from_the_lobby(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    for side in (ann, bob):
        side.open(RATED)
    x, o = seated(ann, bob)
    match = x.match_id()
    seat = (x.saved_match() or {})["seat"]
    x.play_cell("11")
    o.play_cell("00")
    x.expect_state("PLAYING_TO_MOVE")
    # The same key has a finished match and a correspondence match, which have no way back,
    # and another match on, which ends while the lobby shows it.
    key = str(x.page.evaluate("localStorage.getItem('movewire.player')"))
    finished, partner = keyed_match(relay, key, "finished")
    call(relay, f"/v1/matches/{finished}/resign", {}, partner)
    keyed_match(relay, key, "by-post", time_control=DAY)
    ending, partner = keyed_match(relay, key, "ending")

    # A lobby tab beside the game: both matches on, no countdown (the seat is here).
    lobby = another_tab(x, "ann-lobby")
    lobby.open("/")
    notices = lobby.page.locator("#way-back li")
    expect(notices.get_by_role("link")).to_have_text([WORDS, WORDS])
    expect(lobby.page.locator(f"#way-back li[data-match='{match}'] .way-back-left")).to_be_hidden()
    call(relay, f"/v1/matches/{ending}/resign", {}, partner)

    # X's tab is closed: the opponent sees X away, counting down.
    back = reopen(x)
    presence = o.page.locator("#presence")
    away = re.compile(r"^Opponent disconnected: \d+ s to come back$")
    expect(presence).to_have_text(away, timeout=AWAY_WITHIN_MS)
    # Meanwhile the lobby tab read again, without a reload: the match that ended is gone.
    expect(notices).to_have_count(1, timeout=READ_AGAIN_MS)
    expect(notices).to_have_attribute("data-match", match)
    assert lobby.errors == []
    # Closed: over HTTP/1.1 a browser opens at most 6 connections to a host, and a lobby holds
    # a poll for each game's list; two lobbies' polls would keep the next one's reads waiting.
    lobby.page.close()

    # A new tab of the same browser: the lobby shows the way back, counting down.
    back.open("/")
    notice = back.page.locator(f"#way-back li[data-match='{match}']")
    link = notice.get_by_role("link", name=WORDS, exact=True)
    expect(link).to_be_visible()
    expect(back.page.locator("#way-back li")).to_have_count(1)
    assert str(link.get_attribute("href")).endswith(f"#resume={match}&seat={seat}")
    left = notice.locator(".way-back-left")
    expect(left).to_have_text(LEFT)
    first = seconds(left)
    assert 0 <= first <= 30
    expect(left).not_to_have_text(f"{first} s left to come back")
    assert seconds(left) < first
    # Said once to a screen reader, politely; the countdown itself is a timer, never read out.
    said = back.page.locator("#way-back-said")
    expect(said).to_have_attribute("role", "status")
    expect(said).to_have_text(re.compile(rf"^{SAID}\d+ s left to come back\.$"))
    expect(left).to_have_attribute("role", "timer")
    no_severe_violations(back, "the way back shown")
    back.shot("way-back")

    # The lobbies' reads never made the seat look present: the opponent still sees it away.
    expect(presence).to_have_text(away)

    # By keyboard to the game page, which takes the match up as it was: X to move.
    reach_by_tab(back, link)
    expect(back.page).to_have_url(re.compile(r"/xand0\.html"))
    plays_on(back, o, presence)
    back.shot("taken-up")
    assert back.errors == []


def test_a_closed_tab_of_a_casual_match_goes_back_by_the_ticket_it_kept(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    ann.open(CASUAL)
    ann.expect_state("LISTENING")
    ann.match_id()  # the seek is saved in the tab: a seek still waiting has no way back
    assert live_tickets(ann) == []
    bob.open(CASUAL)
    x, o = seated(ann, bob)
    match = x.match_id()
    saved = x.saved_match() or {}
    seat = saved["seat"]
    x.play_cell("11")
    o.play_cell("00")
    x.expect_state("PLAYING_TO_MOVE")
    # Casual: no player key. The started match's ticket is kept in localStorage, with its page.
    assert x.page.evaluate("localStorage.getItem('movewire.player')") is None
    kept = [(t["game"], t["match"], t["seat"], t["token"], t["page"]) for t in live_tickets(x)]
    assert kept == [("xand0", match, seat, saved["token"], "xand0.html")]
    # Two tickets the relay no longer has on: a match it never knew, and one finished.
    finished, _ = xand0_match(relay, WIN, end=True)
    stale = [
        {**live_tickets(x)[0], "match": gone, "seat": 0, "token": "t" * 43}
        for gone in ("n0-such-match", finished)
    ]
    x.page.evaluate(
        "(stale) => localStorage.setItem("
        f"'{LIVE}', JSON.stringify([...stale, ...JSON.parse(localStorage.getItem('{LIVE}'))]))",
        stale,
    )

    # X's tab is closed (its sessionStorage with it): the opponent sees X away.
    back = reopen(x)
    presence = o.page.locator("#presence")
    away = re.compile(r"^Opponent disconnected: \d+ s to come back$")
    expect(presence).to_have_text(away, timeout=AWAY_WITHIN_MS + 2_000)

    # A new tab of the same browser: the lobby shows the way back, counting down, and
    # forgets the tickets of the matches no longer on.
    back.open("/")
    notices = back.page.locator("#way-back li")
    notice = back.page.locator(f"#way-back li[data-match='{match}']")
    link = notice.get_by_role("link", name=WORDS, exact=True)
    expect(link).to_be_visible()
    expect(notices).to_have_count(1)
    href = str(link.get_attribute("href"))
    assert href.endswith(f"xand0.html#resume={match}&seat={seat}"), href
    assert saved["token"] not in href
    left = notice.locator(".way-back-left")
    expect(left).to_have_text(LEFT)
    first = seconds(left)
    assert 0 <= first <= 30
    expect(left).not_to_have_text(f"{first} s left to come back")
    said = back.page.locator("#way-back-said")
    expect(said).to_have_text(re.compile(rf"^{SAID}\d+ s left to come back\.$"))
    expect(left).to_have_attribute("role", "timer")
    assert [t["match"] for t in live_tickets(back)] == [match]
    # Chromium logs the relay's 404 for the match it never knew, once: its ticket went then.
    assert back.errors == [NOT_FOUND]
    back.errors.clear()
    back.shot("way-back-casual")

    # Followed: the game page takes the match up by the kept token, the board as it was.
    link.click()
    expect(back.page).to_have_url(re.compile(r"/xand0\.html$"))
    plays_on(back, o, presence)
    o.play_cell("01")
    expect(back.cell("01")).to_have_text("0")

    # Resigned: the match is over, its ticket forgotten, and the lobby offers no way back.
    back.page.get_by_role("button", name="Resign", exact=True).click()
    back.page.locator("#confirm-resign").get_by_role("button", name="Resign", exact=True).click()
    o.expect_status("Your opponent resigned: you win.")
    back.expect_state("GAME_ENDED")
    back.page.wait_for_function(f"() => localStorage.getItem('{LIVE}') === null")
    back.open("/")
    expect(back.page.locator("#way-back")).to_have_attribute("data-state", "read")
    expect(notices).to_have_count(0)
    expect(back.page.locator("#way-back")).to_be_hidden()
    assert back.errors == []

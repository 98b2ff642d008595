"""A player's moderation in real Chromium, through a real relay with the host's admin API on
(docs/protocol.md#moderation): two players who sought rated (each with its own player key) see
Mute, Block and Report beside the opponent; a muted opponent's chat is hidden with a one-line
note and shows again once unmuted; a report by keyboard is thanked, and the host reads it
(GET /v1/admin/reports); the host erases the sender and a reloaded page reads "(removed by the
host)"; a blocked opponent is not met again; a ban is told in the relay's words on a rematch
and on a seek, which is not sent again. On a phone's width nothing needs sideways scrolling."""

from __future__ import annotations

import json
import re
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Request, expect

from tests.browser.axe import no_severe_violations
from tests.browser.conftest import MakePlayer
from tests.browser.keyboard import press, say, tab_to
from tests.browser.players import PHONE, Player
from tests.browser.relay_api import match_status
from tests.browser.seating import seated
from tests.support.relay_process import RelayProcess, quick_flags

SECRET = "host-" + secrets.token_urlsafe(24)
"""The relay's admin secret, given in its environment (never on its command line)."""

RATED = "/xand0.html#play&rated=1"
"""A random opponent sought with the browser's player key: both seats then have public ids."""

FORBIDDEN = re.compile(
    r"^console: Failed to load resource: the server responded with a status of 403 \(Forbidden\)$"
)
"""Chromium's console report of a request the relay refused with 403 (the bans below)."""

BANNED = re.compile(
    r"^This player key is banned from new matches on this relay for (10|9) minutes more: "
    r"testing the ban\.$"
)
"""The ban's words on the page: the relay's, its seconds said plainly."""

REMATCH_BANNED = re.compile(
    r"^No rematch: A player key of this match is banned from new matches on this relay for "
    r"(10|9) minutes more: testing the ban\.$"
)
"""A refused rematch's words: either seat may be the banned one, so neither is named."""


@pytest.fixture
def relay() -> Iterator[RelayProcess]:
    """Returns a relay serving the pages, its admin API on (the secret in its environment)."""
    with RelayProcess(*quick_flags(), env={"MOVEWIRE_ADMIN_SECRET": SECRET}) as process:
        yield process


def call(
    relay: RelayProcess, method: str, path: str, body: object = None, bearer: str = SECRET
) -> tuple[int, Any]:
    """Returns (status, JSON answer) of a request to the relay, the host's secret (or another
    bearer) as its Authorization."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"}
    request = urllib.request.Request(relay.url + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, json.loads(refused.read())


def seat_rated(relay: RelayProcess, ann: Player, bob: Player) -> tuple[str, list[str]]:
    """Both seek a random opponent rated and meet; returns (the match, the seats' public ids)."""
    ann.open(RATED)
    bob.open(RATED)
    seated(ann, bob)
    match = ann.match_id()
    assert bob.match_id() == match
    status, info = call(relay, "GET", f"/v1/matches/{match}")
    assert status == 200, info
    players: list[str] = info["players"]
    assert all(isinstance(one, str) and len(one) == 12 for one in players), players
    return match, players


def seat_of(side: Player) -> int:
    """Returns the seat of a player's match, as its tab keeps it."""
    return int((side.saved_match() or {})["seat"])


def key_of(side: Player) -> str:
    """Returns the player key the page keeps (localStorage)."""
    return str(side.page.evaluate("localStorage.getItem('movewire.player')"))


def chat_of(side: Player) -> list[str]:
    """Returns the chat lines the page shows, as text."""
    return [str(line) for line in side.page.locator("#chat .chat-lines li").all_inner_texts()]


def test_a_muted_line_hides_and_shows_a_report_reaches_the_host_and_an_erased_line_reads_removed(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann", PHONE), player("bob")
    match, players = seat_rated(relay, ann, bob)
    ann_id, bob_id = players[seat_of(ann)], players[seat_of(bob)]
    controls = ann.page.locator("#moderation")
    expect(controls).to_be_visible()
    for name in ("Mute", "Block", "Report"):
        expect(ann.page.get_by_role("button", name=name, exact=True)).to_be_visible()

    # Bob talks; Ann mutes him by keyboard: his lines hide, a note counts them, new ones too.
    say(bob, "hello there")
    lines = ann.page.locator("#chat .chat-lines li")
    expect(lines).to_have_text(["Opponent: hello there"])
    press(ann, "Mute")
    hidden = ann.page.locator("#chat .chat-hidden")
    expect(hidden).to_have_text("1 line hidden (muted)")
    expect(lines).to_have_count(0)
    expect(ann.page.locator("#moderation-note")).to_have_text(
        "Muted: their chat is hidden from you."
    )
    status, blocks = call(relay, "GET", "/v1/player/blocks", bearer=key_of(ann))
    assert status == 200 and [(e["id"], e["kind"]) for e in blocks["blocks"]] == [
        (bob_id, "mute")
    ], blocks
    say(bob, "still here")
    expect(hidden).to_have_text("2 lines hidden (muted)")
    expect(lines).to_have_count(0)
    assert ann.fits_viewport()
    ann.shot("muted")

    # Unmuted from the same place: every line shows again, the note goes.
    press(ann, "Unmute")
    expect(lines).to_have_text(["Opponent: hello there", "Opponent: still here"])
    expect(hidden).to_be_hidden()
    expect(ann.page.get_by_role("button", name="Mute", exact=True)).to_be_visible()
    assert call(relay, "GET", "/v1/player/blocks", bearer=key_of(ann))[1] == {"blocks": []}

    # A report by keyboard, about the chat, with words: thanked, and the host reads it.
    press(ann, "Report")
    form = ann.page.locator("#report-form")
    expect(form).to_be_visible()
    expect(ann.page.get_by_role("button", name="Report", exact=True)).to_have_attribute(
        "aria-expanded", "true"
    )
    expect(ann.page.get_by_label("their play")).to_be_focused()
    ann.page.keyboard.press("ArrowRight")
    ann.page.keyboard.press("ArrowRight")
    expect(ann.page.get_by_label("their chat")).to_be_checked()
    tab_to(ann.page, ann.page.get_by_label("What happened (optional)"))
    ann.page.keyboard.type("spam in the chat")
    assert ann.fits_viewport()
    no_severe_violations(ann, "the report form open")
    ann.shot("report-form")
    press(ann, "Send report")
    note = ann.page.locator("#moderation-note")
    expect(note).to_have_text("Reported. Thank you.")
    expect(form).to_be_hidden()
    status, found = call(relay, "GET", "/v1/admin/reports")
    assert status == 200, found
    (report,) = found["reports"]
    assert (report["match"], report["about"], report["text"]) == (match, "chat", "spam in the chat")
    assert (report["reporter"], report["reported"]) == (ann_id, bob_id)
    assert report["chat"] == ["hello there", "still here"]
    # A second report of the same is answered the same, and filed once.
    press(ann, "Report")
    press(ann, "Send report")
    expect(note).to_have_text("Reported. Thank you.")
    assert len(call(relay, "GET", "/v1/admin/reports")[1]["reports"]) == 1

    # The host erases Bob: a page reloaded reads his lines as removed, never as empty lines.
    status, erased = call(relay, "POST", "/v1/admin/erase", {"id": bob_id})
    assert status == 200 and erased["lines"] == 2, erased
    ann.page.reload()
    playing(ann)
    removed = "Opponent: (removed by the host)"
    expect(lines).to_have_text([removed, removed])
    expect(ann.page.locator("#chat .chat-removed")).to_have_count(2)
    expect(ann.page.locator("#chat .chat-text:text-is('')")).to_have_count(0)
    ann.shot("erased")


def playing(side: Player) -> None:
    """Waits until the side's match is being played (either side's turn)."""
    expect(side.page.locator("body")).to_have_attribute("data-state", re.compile("^PLAYING_"))


def resign(side: Player) -> None:
    """Resigns the side's match, confirming in the dialog."""
    side.page.get_by_role("button", name="Resign", exact=True).click()
    side.page.locator("#confirm-resign").get_by_role("button", name="Resign", exact=True).click()


def test_a_blocked_opponent_is_not_met_again_and_a_ban_is_told_on_rematch_and_seek(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob", PHONE)
    _, players = seat_rated(relay, ann, bob)
    ann_id = players[seat_of(ann)]

    # Bob talks; Ann blocks him: his line hides, as blocked, and Mute is no more offered.
    say(bob, "hi")
    lines = ann.page.locator("#chat .chat-lines li")
    expect(lines).to_have_text(["Opponent: hi"])
    press(ann, "Block")
    expect(ann.page.locator("#chat .chat-hidden")).to_have_text("1 line hidden (blocked)")
    expect(lines).to_have_count(0)
    expect(ann.page.get_by_role("button", name="Unblock", exact=True)).to_be_visible()
    expect(ann.page.get_by_role("button", name="Mute", exact=True)).to_be_hidden()
    expect(ann.page.locator("#moderation-note")).to_contain_text("Blocked: you will not be paired")

    # The match ends; the host bans Ann: her rematch offer and her seek say why, and for how long.
    resign(ann)
    for side in (ann, bob):
        side.expect_state("GAME_ENDED")
    ban_body = {"target": ann_id, "seconds": 600, "reason": "testing the ban"}
    status, ban = call(relay, "POST", "/v1/admin/bans", ban_body)
    assert status == 201, ban
    seeks: list[str] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/v1/seek"):
            seeks.append(request.url)

    ann.page.on("request", seen)
    press(ann, "Rematch")
    rematch_words = ann.page.locator("#rematch-status")
    expect(rematch_words).to_have_text(REMATCH_BANNED)
    press(ann, "Play again")
    expect(ann.status).to_have_text(BANNED)
    ann.expect_state("NOT_CONNECTED")
    ann.page.wait_for_timeout(1500)  # long enough for a retry to show, if there were one
    assert len(seeks) == 1, seeks
    expect(ann.status).to_have_text(BANNED)
    ann.shot("banned")
    forgiven = [error for error in ann.errors if FORBIDDEN.match(error)]
    assert len(forgiven) == 2, ann.errors  # the rematch offer's and the seek's refusals
    ann.errors[:] = [error for error in ann.errors if not FORBIDDEN.match(error)]

    # The ban lifted, both seek again (rated) and are not paired: each waits alone.
    status, lifted = call(relay, "POST", "/v1/admin/unban", {"target": ann_id})
    assert status == 200 and lifted["lifted"] is True, lifted
    press(ann, "Play again")
    ann.expect_state("LISTENING")
    press(bob, "Play again")
    bob.expect_state("LISTENING")
    waiting = {side.match_id() for side in (ann, bob)}
    assert len(waiting) == 2, waiting
    bob.page.wait_for_timeout(1500)  # a pairing would have come at the second seek
    for side in (ann, bob):
        side.expect_status("Waiting for an opponent...")
    assert {match_status(relay, match) for match in waiting} == {"waiting"}
    assert len(seeks) == 2, seeks

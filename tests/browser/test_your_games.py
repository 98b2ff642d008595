"""Your games in real Chromium: a correspondence match of a player key, listed in the lobby
with whose turn it is and the time left, opened in one keyboard press on a desktop and on a
phone, and played on from there while the partner plays through the relay's HTTP API."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.keyboard import reach_by_tab
from tests.browser.players import PHONE, Player
from tests.support.relay_process import RelayProcess

KEY = "Kq3xW9" + "k" * 37
DAY = {"kind": "deadline", "per_move": 86400}


def call(
    relay: RelayProcess, method: str, path: str, body: object = None, token: str | None = None
) -> Any:
    """Returns the relay's JSON answer to one request (the partner's side of the match)."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(relay.url + path, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def seek(relay: RelayProcess, room: str, **more: Any) -> dict[str, Any]:
    """Seeks X and 0 in a room on a one-day-a-move clock; returns the ticket."""
    body = {"game": "xand0", "version": "1", "room": room, "time_control": DAY, **more}
    ticket: dict[str, Any] = call(relay, "POST", "/v1/seek", body)
    return ticket


def events(relay: RelayProcess, ticket: dict[str, Any], after: int) -> list[dict[str, Any]]:
    """Returns the match's events after `after`, waiting up to 5 s for one."""
    path = f"/v1/matches/{ticket['match']}/events?after={after}&wait=5"
    found: list[dict[str, Any]] = call(relay, "GET", path, token=ticket["token"])["events"]
    return found


def use_key_by_keyboard(player: Player) -> None:
    """Brings the player key in through the lobby's form, with the keyboard only."""
    player.open("/")
    summary = player.page.locator("#your-games summary")
    reach_by_tab(player, summary)
    reach_by_tab(player, player.page.locator("#player-key"), enter=False)
    player.page.keyboard.type(KEY)
    player.page.keyboard.press("Enter")
    expect(player.page.locator("#your-games .key-value")).to_have_text(KEY)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_correspondence_match_is_listed_and_opened_from_your_games(
    player: MakePlayer, relay: RelayProcess, viewport: str
) -> None:
    me = player(viewport, PHONE) if viewport == "phone" else player(viewport)
    mine = seek(relay, "post", player=KEY)
    bob = seek(relay, "post")
    first = events(relay, bob, 0)[0]["first"]
    after = 1
    if first == bob["seat"]:  # bob moves, so that it is the key's turn
        path = f"/v1/matches/{bob['match']}/moves"
        assert call(relay, "POST", path, {"after": 1, "move": "11"}, bob["token"])["seq"] == 2
        after = 2
    use_key_by_keyboard(me)
    row = me.page.locator(f"#your-games .mine-list li[data-match='{mine['match']}']")
    expect(row).to_have_text(
        re.compile(r"^X and 0: Your turn · (23 hours \d+ minutes|1 day) left Open$")
    )
    me.shot("your-games")
    reach_by_tab(me, row.locator("a"))
    expect(me.page).to_have_url(re.compile(r"/xand0\.html$"))
    me.expect_state("PLAYING_TO_MOVE")
    cell = "00" if after == 1 else "22"
    me.key_to_cell(cell)
    me.expect_state("PLAYING_WAIT_MOVE")
    me.shot("played-from-your-games")
    played = events(relay, bob, after)
    assert played[0]["type"] == "move" and played[0]["move"] == cell
    assert played[0]["seat"] == mine["seat"]

    # Back in the lobby, the match waits on the partner now.
    me.open("/")
    expect(row).to_have_text(re.compile(r"^X and 0: Their turn · .* left Open$"))


def test_opening_a_listed_match_without_the_key_says_how_to_add_it(
    player: MakePlayer, relay: RelayProcess
) -> None:
    me = player("keyless")
    me.open("/xand0.html#resume=abcdef&seat=0")
    me.expect_status(
        'This browser has no player key: add yours under "Your player key" in the lobby.'
    )


def test_a_pasted_key_that_is_not_one_is_refused_in_place(
    player: MakePlayer, relay: RelayProcess
) -> None:
    me = player("typo")
    me.open("/")
    me.page.locator("#your-games summary").click()
    me.page.locator("#player-key").fill("too short")
    me.page.locator("#player-key").press("Enter")
    message = me.page.locator("#player-key").evaluate("input => input.validationMessage")
    assert message == "A player key is 32 to 128 letters, digits, '-' or '_'."
    expect(me.page.locator("#your-games .key-value")).to_have_text("none yet")


def test_a_correspondence_game_sought_on_a_page_is_in_that_browsers_games(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob", PHONE)
    ann.open("/xand0.html")
    ann.page.get_by_label("Clock").select_option(label="1 day a move")
    ann.page.get_by_role("button", name="Create a private room").click()
    ann.expect_state("LISTENING")
    link = ann.page.locator("#share-link").input_value()
    bob.open("/xand0.html#" + link.split("#", 1)[1])
    expect(bob.page.locator("body")).to_have_attribute("data-state", re.compile("^PLAYING_"))
    match = ann.match_id()
    for side in (ann, bob):  # each browser drew a player key of its own at its seek
        side.open("/")
        row = side.page.locator(f"#your-games .mine-list li[data-match='{match}']")
        listed = r"^X and 0: (Your|Their) turn · (23 hours \d+ minutes|1 day) left Open$"
        expect(row).to_have_text(re.compile(listed))
    keys = {side.page.locator("#your-games .key-value").text_content() or "" for side in (ann, bob)}
    assert len(keys) == 2 and all(len(key) == 43 for key in keys)
    bob.shot("your-games-from-a-page")


def test_the_right_key_is_taken_after_a_wrong_one(player: MakePlayer, relay: RelayProcess) -> None:
    me = player("second-try")
    me.open("/")
    me.page.locator("#your-games summary").click()
    field = me.page.locator("#player-key")
    field.fill("too short")
    field.press("Enter")
    assert field.evaluate("input => input.validationMessage") == (
        "A player key is 32 to 128 letters, digits, '-' or '_'."
    )
    field.fill(KEY)
    field.press("Enter")
    expect(me.page.locator("#your-games .key-value")).to_have_text(KEY)
    assert field.evaluate("input => input.validity.customError") is False
    assert me.page.evaluate("localStorage.getItem('movewire.player')") == KEY

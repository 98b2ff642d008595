"""The installable pages in real Chromium: a valid web app manifest, a service worker that controls
the lobby, and, once offline, the lobby, Your games (the list read last, with when) and a finished
match's replay that open from its cache and say they are offline, while the relay's protocol is
never answered from it. Your games lists the matches on the player's turn first, least time left
first, with the time left, and the app's badge counts them."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import no_severe_violations
from tests.browser.conftest import MakePlayer
from tests.browser.players import Player
from tests.browser.relay_api import WIN, call, xand0_match
from tests.support.relay_process import RelayProcess

KEY = "Inst4ll" + "k" * 36

BADGE_SPY = """
window.badges = [];
Navigator.prototype.setAppBadge = function (count) {
  window.badges.push(count);
  return Promise.resolve();
};
Navigator.prototype.clearAppBadge = function () {
  window.badges.push(0);
  return Promise.resolve();
};
"""
"""Records each count the page puts on the app's badge (headless Chromium shows none)."""

OFFLINE_ERRORS = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch")
"""What the console says of the requests that fail offline, as they must."""


def days(count: int) -> dict[str, Any]:
    """Returns a correspondence time control of `count` days a move."""
    return {"kind": "deadline", "per_move": 86400 * count}


def correspondence(relay: RelayProcess, room: str, per_move: int, mine_to_move: bool) -> str:
    """Starts an X and 0 match of KEY against a partner on `per_move` days a move, with the turn
    on KEY's side or the partner's; returns its id."""
    body = {"game": "xand0", "version": "1", "room": room, "time_control": days(per_move)}
    mine = call(relay, "/v1/seek", {**body, "player": KEY})
    partner = call(relay, "/v1/seek", body)
    path = f"/v1/matches/{partner['match']}/events?after=0&wait=5"
    first = call(relay, path, token=partner["token"])["events"][0]["first"]
    if (first == partner["seat"]) == mine_to_move:  # one move hands the turn over
        mover = partner if first == partner["seat"] else mine
        move = {"after": 1, "move": "11"}
        call(relay, f"/v1/matches/{mine['match']}/moves", move, mover["token"])
    return str(mine["match"])


def badges(me: Player) -> list[int]:
    """Returns the counts the page put on the app's badge since it opened."""
    return list(me.page.evaluate("window.badges"))


def test_your_games_lists_your_turn_first_with_the_time_left_and_badges_the_count(
    player: MakePlayer, relay: RelayProcess
) -> None:
    later = correspondence(relay, "later", 3, mine_to_move=True)
    theirs = correspondence(relay, "theirs", 1, mine_to_move=False)
    sooner = correspondence(relay, "sooner", 1, mine_to_move=True)
    me = player("badged", workers=True)
    me.page.add_init_script(BADGE_SPY)
    me.page.add_init_script(f"localStorage.setItem('movewire.player', '{KEY}')")
    me.open("/")
    rows = me.page.locator("#your-games .mine-list li")
    expect(rows).to_have_count(3)
    assert rows.evaluate_all("rows => rows.map(row => row.dataset.match)") == [
        sooner,
        later,
        theirs,
    ]
    expect(rows.nth(0)).to_have_text(
        re.compile(r"^X and 0: Your turn · (23 hours \d+ minutes|1 day) left Open$")
    )
    expect(rows.nth(1)).to_have_text(
        re.compile(r"^X and 0: Your turn · (2 days 23 hours|3 days) left Open$")
    )
    expect(rows.nth(2)).to_have_text(re.compile(r"^X and 0: Their turn · .* left Open$"))
    expect(me.page.locator("#your-games")).to_have_attribute("data-your-turn", "2")
    assert badges(me) == [2]


@pytest.mark.parametrize("relay", [None, "/games"], indirect=True, ids=["root", "prefix"])
def test_the_installed_pages_open_offline_and_say_so(
    player: MakePlayer, relay: RelayProcess
) -> None:
    at = getattr(relay, "prefix", "")  # the pages' root: the relay's, or under its --prefix
    finished, _ = xand0_match(relay, WIN, end=True)
    mine = correspondence(relay, "offline", 1, mine_to_move=True)
    me = player("installed", workers=True)
    me.page.add_init_script(BADGE_SPY)
    me.page.add_init_script(f"localStorage.setItem('movewire.player', '{KEY}')")
    me.open(f"{at}/")
    expect(me.page.locator(f"#your-games li[data-match='{mine}']")).to_contain_text("Your turn")

    # Installable: the manifest parses without error, and the worker controls the lobby.
    cdp = me.page.context.new_cdp_session(me.page)  # detached before going offline: while
    # attached, Chromium's navigator.onLine stays true under Playwright's offline emulation
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    parsed = json.loads(manifest["data"])
    assert parsed["display"] == "standalone" and parsed["start_url"] == "./"
    me.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    worker = "navigator.serviceWorker.ready.then((r) => [r.active.state, r.scope])"
    assert me.page.evaluate(worker) == ["activated", f"{relay.url}/"]
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    cdp.detach()

    me.open(f"{at}/replay.html#match={finished}")
    result = me.page.locator("#status")
    expect(result).to_have_text(re.compile(r"won"))
    won = result.text_content()

    me.expected = OFFLINE_ERRORS  # told whenever the console gets to them, after going back too
    me.page.context.set_offline(True)
    me.open(f"{at}/")
    line = me.page.locator(".offline-line")
    expect(line).to_have_text(
        re.compile(
            r"^You are offline: games can be played once you are back online\. Your games "
            r"shows the list read at \d+:\d\d( [AP]M)?\.$"
        )
    )
    row = me.page.locator(f"#your-games li[data-match='{mine}']")
    expect(row).to_have_text(re.compile(r"^X and 0: Your turn · 23 hours \d+ minutes left Open$"))
    expect(me.page.locator("#your-games .mine-read")).to_have_text(
        re.compile(r"^Last read at \d+:\d\d( [AP]M)?, while online\.$")
    )
    assert badges(me) == [1]
    no_severe_violations(me, "the lobby offline")
    # The protocol is never answered from the cache: offline, a request of it fails.
    asked = "fetch('v1/games').then((a) => `answered ${a.status}`, () => 'failed')"
    assert me.page.evaluate(asked) == "failed"

    me.open(f"{at}/replay.html#match={finished}")
    expect(result).to_have_text(won or "")
    expect(line).to_have_text("You are offline: this replay was kept from an earlier visit.")
    expect(me.page.locator("#board")).to_be_visible()
    no_severe_violations(me, "the replay offline")

"""The replay page in real Chromium: a finished match stepped through by keyboard, a live one
followed as it is played, at desktop and phone sizes."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import DESKTOP, PHONE, Viewport
from tests.support.relay_process import RelayProcess

WIN = ["00", "10", "11", "20", "22"]
"""X takes the diagonal while O answers on the top row."""


def call(relay: RelayProcess, path: str, body: object = None, token: str | None = None) -> Any:
    """Sends one request to the relay; returns the decoded JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        relay.url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def xand0_match(relay: RelayProcess, moves: list[str], *, end: bool) -> tuple[str, list[str]]:
    """Plays moves of X and 0 through the relay (the last ending the game, agreed, if end);
    returns the match id and the tokens (first mover's first)."""
    a = call(relay, "/v1/seek", {"game": "xand0", "version": "1", "room": "replayed"})
    b = call(relay, "/v1/seek", {"game": "xand0", "version": "1", "room": "replayed"})
    match = a["match"]
    first = call(relay, f"/v1/matches/{match}")["first"]
    tokens = [a["token"], b["token"]] if first == a["seat"] else [b["token"], a["token"]]
    for index, move in enumerate(moves):
        last = end and index == len(moves) - 1
        body = {"after": index + 1, "move": move, "end": last}
        call(relay, f"/v1/matches/{match}/moves", body, tokens[index % 2])
    if end:
        confirm = {"after": len(moves) + 1, "agree": True}
        call(relay, f"/v1/matches/{match}/confirm", confirm, tokens[len(moves) % 2])
    return match, tokens


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_finished_match_is_stepped_through_by_keyboard(
    player: MakePlayer, relay: RelayProcess, viewport: Viewport
) -> None:
    match, _ = xand0_match(relay, WIN, end=True)
    viewer = player("viewer", viewport)
    viewer.open(f"/replay.html#match={match}")
    expect(viewer.page.locator("#title")).to_have_text("Replay: X and 0")
    expect(viewer.status).to_have_text("0 agreed the game was over.")
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
    expect(viewer.status).to_have_text("0 resigned.")
    viewer.shot("followed")


def test_an_unknown_match_is_said_plainly(player: MakePlayer) -> None:
    viewer = player("lost")
    viewer.open("/replay.html#match=no-such-match")
    expect(viewer.status).to_contain_text("No match 'no-such-match'")
    # Chromium logs the record's 404 itself: the one error this test asks for.
    assert [error for error in viewer.errors if "404" in error] == viewer.errors != []
    viewer.errors.clear()

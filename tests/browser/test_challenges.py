"""Challenges in real Chromium, two players each in a browser context of its own: Bob's lobby
offers to challenge Ann from Your games and his recent opponents; Ann challenges Bob from the
replay of their finished match; Bob's lobby shows it without a reload and he
declines; Ann challenges him again from her lobby's recent opponents, he accepts, both land in
the match (Ann's lobby opens it as it is accepted) and both move; once it is over, Ann's game
page offers to challenge Bob again. A key Ann blocked is refused in words. A leaderboard row
challenges its player, rated. axe-core finds no
serious or critical violation on the lobby, the dialog, the replay or the finished match
(docs/protocol.md#challenges)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import no_severe_violations
from tests.browser.conftest import MakePlayer
from tests.browser.players import Player
from tests.browser.relay_api import call
from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(90)

ANN, BOB, CY = ("Ann1" + "a" * 40, "Bob1" + "b" * 40, "Cy11" + "c" * 40)


@pytest.fixture
def relay() -> Iterator[RelayProcess]:
    """Returns a relay that rates every game, and puts a key on its leaderboard after a
    handful of rated games against one opponent (no pacing of a pair, no waiting days)."""
    flags = ("--rate-unrefereed", "--pair-daily", "1000", "--board-opponents", "1",
             "--board-days", "0")  # fmt: skip
    with RelayProcess(*quick_flags(), *flags) as process:
        yield process


def finished(relay: RelayProcess, one: tuple[str, str], two: tuple[str, str], room: str) -> str:
    """Pairs two keys (each with its name) at X and 0 and has the first resign; returns the
    match."""
    seats = []
    for key, name in (one, two):
        body = {"game": "xand0", "version": "1", "room": room, "player": key, "name": name}
        seats.append(call(relay, "/v1/seek", body))
    match = str(seats[0]["match"])
    call(relay, f"/v1/matches/{match}/events?after=0&wait=0", token=seats[0]["token"])
    call(relay, f"/v1/matches/{match}/resign", {}, seats[0]["token"])
    return match


def as_player(side: Player, key: str, name: str) -> None:
    """Gives the browser its player key and name, as the lobby keeps them."""
    side.open("/")
    side.page.evaluate(
        "([key, name]) => { localStorage.setItem('movewire.player', key);"
        " localStorage.setItem('movewire.name', name); }",
        [key, name],
    )


def send_challenge(side: Player, name: str, colour: str) -> Any:
    """Opens the dialog of a "Challenge NAME" button and sends a challenge at X and 0."""
    side.page.get_by_role("button", name=f"Challenge {name}").first.click()
    dialog = side.page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text(f"Challenge {name}")
    dialog.get_by_label("Game").select_option("xand0")
    dialog.get_by_label("Who moves first").select_option(colour)
    dialog.get_by_role("button", name="Send the challenge").click()
    return dialog


def test_a_challenge_is_seen_live_declined_accepted_and_played(
    player: MakePlayer, relay: RelayProcess
) -> None:
    old = finished(relay, (ANN, "Ann"), (BOB, "Bob"), "first-meeting")
    blocked = finished(relay, (ANN, "Ann"), (CY, "Cy"), "second-meeting")
    call(relay, "/v1/player/blocks", {"kind": "block", "match": blocked}, ANN)
    ann, bob, cy = player("ann"), player("bob"), player("cy")
    as_player(bob, BOB, "Bob")
    bob.open("/")
    incoming = bob.page.locator("#challenges .incoming-list")
    expect(bob.page.locator("#challenges .opponents-list")).to_contain_text("Ann")
    expect(incoming).to_be_hidden()
    # Your games offers to challenge the opponent of each match too.
    expect(
        bob.page.locator("#your-games").get_by_role("button", name="Challenge Ann")
    ).to_have_count(1)
    no_severe_violations(bob, "the lobby with its challenges")

    # Ann challenges Bob from the replay of their match: Bob's lobby shows it, unreloaded.
    as_player(ann, ANN, "Ann")
    ann.open(f"/replay.html#match={old}")
    expect(ann.page.get_by_role("button", name="Challenge Ann")).to_have_count(0)
    dialog = send_challenge(ann, "Bob", "first")
    expect(dialog.get_by_role("status")).to_have_text(re.compile("^Challenge sent to Bob"))
    no_severe_violations(ann, "the challenge dialog")
    ann.shot("challenge-sent")
    row = incoming.locator("li[data-state='open']")
    expect(row).to_contain_text("Ann challenges you: X and 0 · No clock · casual · they move first")
    bob.shot("challenge-received")
    bob.page.get_by_role("button", name="Decline the challenge of Ann").click()
    expect(incoming.locator("li").first).to_contain_text("declined")

    # Again from Ann's lobby, its recent opponents: accepted, both land in the match.
    ann.open("/")
    expect(ann.page.locator("#challenges .outgoing-list")).to_contain_text("declined")
    ann.page.locator("#challenges .opponents-list").get_by_role(
        "button", name="Challenge Bob"
    ).click()
    dialog = ann.page.get_by_role("dialog")
    dialog.get_by_label("Game").select_option("xand0")
    dialog.get_by_label("Who moves first").select_option("first")
    dialog.get_by_role("button", name="Send the challenge").click()
    expect(dialog.get_by_role("status")).to_have_text(re.compile("^Challenge sent"))
    expect(ann.page.locator("#challenges .outgoing-list li[data-state='open']")).to_have_count(1)
    bob.page.get_by_role("button", name="Accept the challenge of Ann").click()
    bob.page.wait_for_url(re.compile(r"xand0\.html"))
    ann.page.wait_for_url(re.compile(r"xand0\.html"))
    ann.expect_state("PLAYING_TO_MOVE")
    bob.expect_state("PLAYING_WAIT_MOVE")
    ann.play_cell("11")
    bob.expect_state("PLAYING_TO_MOVE")
    bob.play_cell("00")
    ann.expect_state("PLAYING_TO_MOVE")
    ann.shot("playing")
    match = ann.match_id()
    moves = [
        e
        for e in call(relay, f"/v1/matches/{match}/events?after=0")["events"]
        if e["type"] == "move"
    ]
    assert [(e["seat"], e["move"]) for e in moves] == [(0, "11"), (1, "00")]
    info = call(relay, f"/v1/matches/{match}")
    assert info["names"] == ["Ann", "Bob"]
    # Over, the game page offers to challenge the opponent on other terms.
    call(relay, f"/v1/matches/{match}/resign", {}, BOB)
    again = ann.page.get_by_role("button", name="Challenge Bob")
    expect(again).to_be_visible()
    expect(ann.page.get_by_role("button", name="Challenge Ann")).to_have_count(0)
    no_severe_violations(ann, "a finished match's challenge")

    # Cy, whom Ann blocked, is refused in words.
    as_player(cy, CY, "Cy")
    cy.open(f"/replay.html#match={blocked}")
    dialog = send_challenge(cy, "Ann", "random")
    expect(dialog.get_by_role("status")).to_have_text(re.compile("^Not sent: .*blocked"))
    cy.errors = [e for e in cy.errors if "status of 409" not in e]
    no_severe_violations(cy, "a refused challenge")


def test_a_leaderboard_row_challenges_its_player(player: MakePlayer, relay: RelayProcess) -> None:
    # Ann and Bob play enough rated games to be on the leaderboard (established ratings).
    for n in range(16):
        one, two = ((ANN, "Ann"), (BOB, "Bob")) if n % 2 else ((BOB, "Bob"), (ANN, "Ann"))
        finished(relay, one, two, f"ranked-{n}")
    board = call(relay, "/v1/games/xand0/leaderboard")["players"]
    assert sorted(row["name"] for row in board) == ["Ann", "Bob"]
    finished(relay, (CY, "Cy"), ("Dee1" + "d" * 40, "Dee"), "cy-known")
    cy = player("cy")
    as_player(cy, CY, "Cy")
    cy.open("/")
    row = cy.page.locator("#game-xand0 .board-list li").filter(has_text="Ann")
    expect(row.get_by_role("button", name="Challenge Ann")).to_be_visible()
    no_severe_violations(cy, "the lobby's leaderboard with its challenges")
    row.get_by_role("button", name="Challenge Ann").click()
    dialog = cy.page.get_by_role("dialog")
    expect(dialog.get_by_label("Game")).to_have_value("xand0")
    dialog.get_by_label("Rated").check()
    dialog.get_by_role("button", name="Send the challenge").click()
    expect(dialog.get_by_role("status")).to_have_text(re.compile("^Challenge sent to Ann"))
    [made] = call(relay, "/v1/player/challenges", token=ANN)["incoming"]
    assert (made["from"]["name"], made["game"], made["rated"]) == ("Cy", "xand0", True)

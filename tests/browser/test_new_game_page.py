"""The browser page of a new game's skeleton (`python -m sdk.new`), built on the page kit, in
Chromium through a real relay: served from its folder (`--pages-dir`) against the skeleton's
bot to the end; and with the package installed beside a refereeing relay, two players at the
table with a takeback accepted and then a draw agreed, and the replay page showing both."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from sdk.new import write
from tests.browser.axe import no_severe_violations
from tests.browser.conftest import WAIT_MS, MakePlayer
from tests.browser.keyboard import press
from tests.browser.players import Player
from tests.browser.relay_api import events_of, moves_of
from tests.browser.seating import seated
from tests.support.relay_process import ROOT, RelayProcess, quick_flags

RESULT = re.compile(r"^(You win|You lose): took the last stone\.$")


@pytest.fixture
def skeleton(tmp_path: Path) -> Path:
    """Returns the folder of a freshly written skeleton of the game 'stones'."""
    write("stones", tmp_path, "Stones")
    return tmp_path


INSTALLED = "installed"
"""The relay parameter of a relay with the skeleton installed beside it, its referee on."""


def install(skeleton: Path, site: Path) -> None:
    """Installs the skeleton's package into site as pip would, for the relay to find by its
    entry point: the package, and a dist-info that names it in `movewire.games`."""
    shutil.copytree(skeleton / "stones", site / "stones")
    info = site / "stones-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: stones\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[movewire.games]\nstones = stones:PACKAGE\n")


@pytest.fixture
def relay(skeleton: Path, request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """Returns a relay serving the skeleton's page beside the page kit: from its folder
    (`--pages-dir`), or with INSTALLED as a package installed beside it, refereed."""
    if getattr(request, "param", None) == INSTALLED:
        site = skeleton / "site"
        install(skeleton, site)
        env = {"PYTHONPATH": f"{site}{os.pathsep}{ROOT}"}
        with RelayProcess(*quick_flags(), "--referee", "stones", env=env) as process:
            yield process
        return
    with RelayProcess(*quick_flags(), "--pages-dir", str(skeleton / "stones" / "page")) as process:
        yield process


@pytest.mark.timeout(90)
def test_the_skeleton_page_plays_the_skeleton_bot_to_the_end(
    browser: Browser, relay: RelayProcess, skeleton: Path
) -> None:
    room = "page-" + secrets.token_hex(6)
    bot = subprocess.Popen(
        [sys.executable, "-m", "stones", "--relay", relay.url, "--room", room, "--bot"],
        cwd=skeleton,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    context = browser.new_context(base_url=relay.url)
    context.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    missing: list[str] = []  # every file the page asks for is there (its icon too)
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", lambda answer: None if answer.ok else missing.append(answer.url))
        page.goto(f"/stones.html#room={room}")
        # Its icon is one the relay serves (a browser asks /favicon.ico, a 404, without one).
        icon = page.locator("link[rel=icon]").get_attribute("href")
        assert icon is not None and context.request.get(icon).ok, icon
        status = page.locator("#status")
        pile = page.locator(".stones-pile")
        for _ in range(21):
            expect(status).to_have_text(re.compile(r"^(Your turn\.|You win: .+|You lose: .+)$"))
            if RESULT.match(status.inner_text()):
                break
            left = pile.inner_text()
            page.locator("[data-take][aria-disabled=false]").first.click()
            expect(pile).not_to_have_text(left)  # this side's move is on the board
        expect(status).to_have_text(RESULT)
        expect(pile).to_have_text("0 stones left.")
        verdict = status.inner_text()
        out, err = bot.communicate(timeout=20)
    finally:
        context.close()
        bot.kill()
    assert bot.returncode == 0, err
    bots = "lost" if verdict.startswith("You win") else "won"
    # The bot is told the result in the words the ender's game sent (end_words, endWords).
    said = "You lose" if bots == "lost" else "You win"
    assert out.strip() == f"{said}: took the last stone.\nStones: {bots} (agreed)"
    assert not errors, errors
    assert not missing, missing


def take(side: Player, stones: int) -> None:
    """Takes `stones` on this side's turn, by keyboard: Tab to its button, then Enter."""
    side.expect_state("PLAYING_TO_MOVE")
    press(side, f"Take {stones}")


def pile(side: Player) -> Locator:
    """Returns the line that says how many stones are left."""
    return side.page.locator(".stones-pile")


def offer_words(side: Player) -> Locator:
    """Returns the line that says where the last offer stands."""
    return side.page.locator("#offer-status")


def saved(side: Player) -> dict[str, Any]:
    """Returns the match this side's tab keeps (sessionStorage): its id and seat."""
    raw = side.page.evaluate("sessionStorage.getItem('movewire.match.stones')")
    assert raw is not None, f"{side} keeps no match"
    return dict(json.loads(raw))


@pytest.mark.parametrize("relay", [INSTALLED], indirect=True)
@pytest.mark.timeout(90)
def test_two_players_take_a_move_back_and_agree_a_draw_on_the_skeleton_page(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    ann.open("/stones.html")
    ann.expect_state("IDLE")
    ann.page.get_by_role("button", name="Create a private room").click()
    link = ann.page.locator("#share-link").input_value()
    bob.open("/stones.html#" + link.split("#", 1)[1])
    x, o = seated(ann, bob)
    match = saved(x)["match"]
    expect(x.page.locator("#you")).to_have_text("You play X, moving first.")
    expect(o.page.locator("#you")).to_have_text("You play O.")
    take(x, 2)
    expect(pile(o)).to_have_text("19 stones left.")
    expect(o.page.locator("#last-move")).to_have_text("Opponent took 2 stones.")
    take(o, 3)
    for side in (x, o):
        expect(pile(side)).to_have_text("16 stones left.")
    expect(o.page.locator("#last-move")).to_have_text("You took 3 stones.")
    # O asks back its move on X's turn; X accepts.
    press(o, "Ask to take back")
    expect(offer_words(x)).to_have_text("Your opponent asks to take back their last move.")
    press(x, "Accept")
    for side in (x, o):
        expect(pile(side)).to_have_text("19 stones left.")
        expect(offer_words(side)).to_have_text("Move taken back.")
    o.expect_status("Your turn.")
    x.expect_status("Opponent's turn...")
    take(o, 1)
    expect(pile(x)).to_have_text("18 stones left.")
    # X, to move, offers a draw; O accepts it.
    press(x, "Offer draw")
    expect(offer_words(x)).to_have_text("You offered a draw: waiting for your opponent...")
    expect(offer_words(o)).to_have_text("Your opponent offers a draw.")
    no_severe_violations(o, "the skeleton's page with a draw offered")
    press(o, "Accept")
    for side in (x, o):
        side.expect_state("GAME_ENDED")
        side.expect_status("The draw was agreed.")
        expect(pile(side)).to_have_text("18 stones left.")
        expect(side.page.get_by_role("button", name="Rematch")).to_be_visible()
    # The log keeps the move taken back, then the undo that took it back.
    assert [event["move"] for event in moves_of(relay, match)] == ["2", "3", "1"]
    undo = [event for event in events_of(relay, match) if event["type"] == "undo"]
    assert [(event["seat"], event["count"]) for event in undo] == [(saved(o)["seat"], 1)]
    assert events_of(relay, match)[-1]["reason"] == "drawn"
    x.shot("drawn")
    # The package names its GAME as its view: the replay page draws the match with it.
    eve = player("eve")
    eve.open(f"/replay.html#match={match}")
    expect(eve.page.locator("#position")).to_have_text("Move 4 of 4: O took 1 stone.")
    expect(pile(eve)).to_have_text("18 stones left.")
    eve.page.get_by_role("button", name="Back", exact=True).click()
    expect(eve.page.locator("#position")).to_have_text("Move 3 of 4: O took back a move.")
    expect(pile(eve)).to_have_text("19 stones left.")

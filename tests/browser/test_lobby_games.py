"""The lobby's cards are the relay's games (GET /v1/games): an installed game package gets one
beside the examples', with its title and summary as text, its page's links, and Play the
computer only when its page offers it. (The replay page drawing a match with the view its
package names: test_replay.py.)"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.support.game_packages import PAGE, install, package_module, relay_env
from tests.support.relay_process import RelayProcess, quick_flags


@pytest.fixture
def relay(tmp_path: Path) -> Iterator[RelayProcess]:
    """Returns a relay with a game package 'fake' installed beside the examples, refereeing
    Connect Four."""
    title = '"<b>Fake</b> & co"'
    module = package_module().replace('title="Fake"', f"title={title}")
    install(
        tmp_path, "fakegame", "fakegame", {"fake": "fakegame:PACKAGE"},
        {"__init__.py": module, "page/fake.html": PAGE},
    )  # fmt: skip
    args = (*quick_flags(), "--referee", "connect4")
    with RelayProcess(*args, env=relay_env(tmp_path)) as process:
        yield process


def test_the_lobby_shows_a_card_for_each_installed_game(player: MakePlayer) -> None:
    ann = player("ann")
    ann.page.goto("/")
    cards = ann.page.locator("#games > li.card")
    expect(cards).to_have_count(4)
    assert [card.get_attribute("id") for card in cards.all()] == [
        "game-connect4", "game-dots", "game-fake", "game-xand0",
    ]  # fmt: skip
    fake = ann.page.locator("#game-fake")
    expect(fake.get_by_role("heading", level=2)).to_have_text("<b>Fake</b> & co")  # as text
    expect(fake.locator("p").first).to_have_text("A fake game.")
    expect(fake.get_by_role("link", name="Play a random opponent")).to_have_attribute(
        "href", "fake.html#play"
    )
    expect(fake.locator("[data-computer]")).to_have_count(0)  # its page offers no computer
    expect(fake.locator(".lobby-lists[data-lobby=fake] .open-list")).to_have_text("None right now.")
    xand0 = ann.page.locator("#game-xand0")
    expect(xand0.locator("a[data-computer=xand0]")).to_have_attribute(
        "href", re.compile(r"^xand0\.html#computer")
    )
    # Whether a result can be trusted: only the refereed game's are checked by the rules.
    checked = ann.page.locator("#games > li.card > p.checked")
    expect(checked).to_have_text(
        ["Results are checked by the rules."]
        + ["Results are as the players' games report them."] * 3
    )
    fake.get_by_role("button", name="Create a private room").click()
    expect(ann.page).to_have_url(re.compile(r"/fake\.html#room=[a-z0-9]+$"))
    expect(ann.page).to_have_title("Fake")

"""Players at the table, in real Chromium: two players and a spectator through a real relay, at
desktop and phone size. Names typed in the lobby and the start section reach the partner and
the spectator; a player who leaves is shown away with the time left to come back, and back
when they return; the chat goes both ways with markup kept as words; a draw is offered and
agreed, a takeback asked and accepted and another declined, a staller is claimed against, the
chat is hidden on a relay without one, and a relay restart on Redis is ridden out. axe-core
finds no serious or critical violation with the chat, an offer and a presence shown."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import PHONE, Player, Viewport
from tests.browser.relay_api import match_status, moves_of
from tests.browser.test_connection_faults import (
    RECONNECTING,
    expect_reconnecting,
    forgive_failed_loads,
    kill,
)
from tests.browser.test_dark_mode import report, violations
from tests.browser.test_xand0 import seated
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import RelayProcess, quick_flags

LAPTOP = Viewport(1280, 800)
"""A laptop's window, as the brief of these tests asks."""

SIZES = [pytest.param(LAPTOP, id="desktop"), pytest.param(PHONE, id="phone")]

MARKUP = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>"]
"""Chat lines that would run code if a page took them for markup."""

AWAY_WITHIN_MS = 8_000
"""How soon a closed tab shows away: the relay's 3 s, a second of its own, and a poll's wake."""


@pytest.fixture
def relay(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """Returns a relay serving the pages, with the extra options the test names (indirect
    parametrization: a tuple of flags), or with none."""
    extra: tuple[str, ...] = getattr(request, "param", ())
    with RelayProcess(*quick_flags(), *extra) as process:
        yield process


def dialogs_of(side: Player) -> list[str]:
    """Returns the list every dialog (alert, confirm) the page opens is added to, dismissed."""
    seen: list[str] = []

    def dismiss(dialog: object) -> None:
        seen.append(str(getattr(dialog, "message", "")))
        getattr(dialog, "dismiss")()

    side.page.on("dialog", dismiss)
    return seen


def name_in_lobby(side: Player, name: str) -> None:
    """Types the player's name into the lobby's field, by keyboard."""
    side.open("/")
    field = side.page.get_by_label("Your name")
    field.focus()
    side.page.keyboard.type(name)
    side.page.keyboard.press("Tab")


def start_named_room(ann: Player, bob: Player) -> tuple[Player, Player, str]:
    """Ann types her name on the game page and creates a private room by keyboard; Bob, named
    in the lobby, opens its link. Returns (the first mover, the other, the match)."""
    name_in_lobby(bob, "Bob")
    ann.open("/xand0.html")
    ann.expect_state("IDLE")
    ann.page.get_by_label("Your name").focus()
    ann.page.keyboard.type("Ann")
    create = ann.page.get_by_role("button", name="Create a private room")
    tab_to(ann.page, create)
    ann.page.keyboard.press("Enter")
    link = ann.page.locator("#share-link").input_value()
    bob.open("/xand0.html#" + link.split("#", 1)[1])
    x, o = seated(ann, bob)
    match = (x.saved_match() or {})["match"]
    return x, o, str(match)


def tab_to(page: Page, target: Locator, most: int = 40) -> None:
    """Presses Tab until `target` has the focus; fails by name after `most` presses."""
    expect(target).to_be_enabled()
    for _ in range(most):
        if target.evaluate("node => node === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {target}")


def say(side: Player, text: str) -> None:
    """Types a chat line and sends it with Enter, by keyboard."""
    field = side.page.get_by_label("Say something to your opponent")
    tab_to(side.page, field)
    side.page.keyboard.type(text)
    side.page.keyboard.press("Enter")


def chat_lines(side: Player) -> list[str]:
    """Returns the chat as the page shows it, line by line."""
    return [str(text) for text in side.page.locator("#chat .chat-lines li").all_inner_texts()]


def press(side: Player, name: str) -> None:
    """Tabs to the button named `name` and presses Enter."""
    tab_to(side.page, side.page.get_by_role("button", name=name, exact=True))
    side.page.keyboard.press("Enter")


def no_severe_violations(side: Player, when: str) -> None:
    """Asserts axe-core finds no serious or critical violation on the page as it is."""
    found = violations(side)
    assert not found, f"{when}:\n{report(found)}"


@pytest.mark.parametrize("viewport", SIZES)
def test_names_presence_and_chat_reach_the_partner_and_the_spectator(
    player: MakePlayer, relay: RelayProcess, viewport: Viewport
) -> None:
    ann, bob, eve = player("ann", viewport), player("bob", viewport), player("eve", viewport)
    popups = [dialogs_of(side) for side in (ann, bob, eve)]
    x, o, match = start_named_room(ann, bob)
    expect(ann.page.locator("#opponent-name")).to_have_text("Opponent: Bob")
    expect(bob.page.locator("#opponent-name")).to_have_text("Opponent: Ann")
    eve.open(f"/replay.html#match={match}")
    players = eve.page.locator("#players")
    expect(players).to_contain_text("Ann")
    expect(players).to_contain_text("Bob")

    # The chat, both ways, by keyboard; markup stays words, and nothing runs.
    say(ann, "good luck")
    expect(bob.page.locator("#chat .chat-lines li")).to_have_text(["Ann: good luck"])
    for line in MARKUP:
        say(bob, line)
    expect(ann.page.locator("#chat .chat-lines li")).to_have_text(
        ["You: good luck", *(f"Bob: {line}" for line in MARKUP)]
    )
    assert chat_lines(bob) == ["Ann: good luck", *(f"You: {line}" for line in MARKUP)]
    for side in (ann, bob):
        expect(side.page.locator("#chat img, #chat script")).to_have_count(0)
    # The spectator reads no chat on a relay that keeps it between the seats (the default).
    expect(eve.page.locator("#chat")).to_be_hidden()
    no_severe_violations(ann, "the chat shown")
    ann.shot("chat")

    # Bob's tab goes away: Ann and the spectator see him away, counting down; he comes back.
    x.play_cell("11")
    expect(o.cell("11")).to_have_text("X")
    bob.page.goto("about:blank")
    presence = ann.page.locator("#presence")
    expect(presence).to_have_text(
        re.compile(r"^Opponent disconnected: \d+ s to come back$"), timeout=AWAY_WITHIN_MS
    )
    first = int(re.findall(r"\d+", presence.inner_text())[0])
    expect(presence).not_to_have_text(f"Opponent disconnected: {first} s to come back")
    expect(players).to_contain_text(re.compile(r"Bob \(disconnected: \d+ s to come back\)"))
    no_severe_violations(ann, "the opponent shown away")
    ann.shot("opponent-away")
    eve.shot("spectator-sees-away")
    bob.open("/xand0.html")  # the tab's sessionStorage takes the match up again
    bob.expect_state("PLAYING_WAIT_MOVE" if bob is x else "PLAYING_TO_MOVE")
    expect(presence).to_have_text("Opponent is back")
    expect(presence).to_have_text("", timeout=8_000)
    expect(players).not_to_contain_text("disconnected")
    assert match_status(relay, match) == "playing"
    for seen in popups:
        assert seen == []

"""Rematch and lobby in real Chromium: a public game found in the lobby, played to its end by
keyboard on a desktop and a phone, a rematch with the first move swapped, and a third person
who watches the live match from the lobby."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.keyboard import reach_by_tab
from tests.browser.players import PHONE, Player

WIN = ["00", "10", "11", "20", "22"]
"""X takes the diagonal while O answers on the top row."""


def seated(a: Player, b: Player) -> tuple[Player, Player]:
    """Returns (the side that moves first, the other) once both are playing."""
    return (a, b) if a.is_first() else (b, a)


def play_win(x: Player, o: Player, watcher: Player | None = None) -> None:
    """Plays WIN by keyboard; the watcher, if any, sees each move after the second live."""
    for i, move in enumerate(WIN):
        mover, other = (x, o) if i % 2 == 0 else (o, x)
        mover.key_to_cell(move)
        expect(other.cell(move)).to_have_text("X0"[i % 2])
        if watcher is not None and i >= 2:
            expect(watcher.page.locator("#position")).to_contain_text(f"Move {i + 1} of {i + 1}")
    x.expect_status("You win: three in a row.")
    o.expect_status("You lose: three in a row.")


def test_a_lobby_game_a_watcher_and_a_rematch_with_the_first_move_swapped(
    player: MakePlayer,
) -> None:
    host, guest, watcher = player("desktop"), player("phone", PHONE), player("watcher")
    watcher.open("/")
    lobby = watcher.page.locator("[data-lobby='xand0']")
    expect(lobby).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(lobby.locator(".live-list li.empty")).to_be_visible()

    # A public game, opened from the lobby with the keyboard, appears in every lobby.
    host.open("/")
    reach_by_tab(host, host.page.locator("#game-xand0 button[data-public]"))
    host.expect_state("LISTENING")
    expect(host.page).to_have_url(re.compile(r"/xand0\.html#room=\w+&public$"))
    match = host.match_id()
    guest.open("/")
    join = guest.page.locator(f"[data-lobby='xand0'] .open-list li[data-match='{match}'] a")
    expect(join).to_have_text("Join")
    expect(lobby.locator(f".open-list li[data-match='{match}']")).to_be_visible()  # live
    guest.shot("lobby-open-game")
    reach_by_tab(guest, join)
    x, o = seated(host, guest)

    # The watcher's lobby moves it to the live matches without a reload: watch it.
    live = lobby.locator(f".live-list li[data-match='{match}'] a")
    expect(live).to_have_text("Watch")
    for i, move in enumerate(WIN[:2]):
        (x, o)[i % 2].key_to_cell(move)
        expect((o, x)[i % 2].cell(move)).to_have_text("X0"[i % 2])
    watcher.shot("lobby-live-match")
    reach_by_tab(watcher, live)
    expect(watcher.page).to_have_url(re.compile(rf"/replay\.html#match={re.escape(match)}$"))
    expect(watcher.page.locator("#position")).to_have_text(
        re.compile(r"^Move 2 of 2: 0 played at row 1, column 2\.$")
    )
    watcher.page.keyboard.press("Home")
    watcher.page.keyboard.press("ArrowRight")
    expect(watcher.page.locator("#position")).to_have_text(
        "Move 1 of 2: X played at row 1, column 1."
    )
    watcher.page.keyboard.press("End")
    for i, move in enumerate(WIN[2:], start=2):  # the rest, followed live by the watcher
        mover, other = (x, o) if i % 2 == 0 else (o, x)
        mover.key_to_cell(move)
        expect(other.cell(move)).to_have_text("X0"[i % 2])
        expect(watcher.page.locator("#position")).to_contain_text(f"Move {i + 1} of {i + 1}")
    x.expect_status("You win: three in a row.")
    o.expect_status("You lose: three in a row.")
    expect(watcher.page.locator("#status")).to_have_text("X won: three in a row, and 0 agreed.")
    # Each player's page links the finished match's replay, which names its id.
    for side in (x, o):
        replay = side.page.get_by_role("link", name="Replay this match")
        expect(replay).to_have_attribute("href", f"replay.html#match={match}")
    watcher.shot("watched-to-the-end")
    # In every lobby the finished match moves on to the ones just finished, to replay.
    watcher.open("/")
    recent = watcher.page.locator(f"[data-lobby='xand0'] .recent-list li[data-match='{match}']")
    expect(recent.locator("a")).to_have_text("Replay")
    expect(recent.locator("a")).to_have_attribute("href", f"replay.html#match={match}")
    watcher.shot("lobby-just-finished")

    # A rematch: offered by the winner, accepted by the loser, both by keyboard.
    for side in (x, o):
        expect(side.page.get_by_role("button", name="Rematch")).to_be_visible()
    reach_by_tab(x, x.page.get_by_role("button", name="Rematch"))
    expect(x.page.locator("#rematch-status")).to_have_text(
        "Rematch offered: waiting for your opponent..."
    )
    expect(o.page.locator("#rematch-status")).to_have_text("Your opponent offers a rematch.")
    expect(o.page.get_by_role("button", name="Decline")).to_be_visible()
    x.shot("rematch-offered")
    o.shot("rematch-offer-heard")
    reach_by_tab(o, o.page.get_by_role("button", name="Accept"))
    again_x, again_o = seated(x, o)
    assert (again_x, again_o) == (o, x), "the first move goes to the other side"
    expect(o.page.locator("#you")).to_have_text("You play X, moving first.")
    expect(x.page.locator("#you")).to_have_text("You play 0.")
    assert (o.saved_match() or {})["match"] != match
    play_win(again_x, again_o)
    assert guest.fits_viewport()
    again_x.shot("rematch-won")
    again_o.shot("rematch-lost")


def test_a_declined_rematch_is_told_and_a_new_offer_can_follow(player: MakePlayer) -> None:
    a, b = player("a"), player("b", PHONE)
    a.open("/xand0.html#room=decline-room")
    a.expect_state("LISTENING")
    b.open("/xand0.html#room=decline-room")
    x, o = seated(a, b)
    play_win(x, o)
    reach_by_tab(o, o.page.get_by_role("button", name="Rematch"))
    expect(x.page.locator("#rematch-status")).to_have_text("Your opponent offers a rematch.")
    reach_by_tab(x, x.page.get_by_role("button", name="Decline"))
    expect(o.page.locator("#rematch-status")).to_have_text("Your opponent declined a rematch.")
    expect(o.page.get_by_role("button", name="Rematch")).to_be_visible()
    o.shot("rematch-declined")


def test_play_the_computer_from_the_lobby_by_keyboard_on_a_phone(player: MakePlayer) -> None:
    phone = player("phone", PHONE)
    phone.open("/")
    reach_by_tab(
        phone, phone.page.locator("#game-xand0").get_by_role("link", name="Play the computer")
    )
    expect(phone.page).to_have_url(re.compile(r"/xand0\.html$"))  # a reload resumes this match
    expect(phone.page.locator("#you")).to_contain_text("against the computer (Medium)")
    expect(phone.page.locator("body")).to_have_attribute("data-state", re.compile("PLAYING_.*"))
    assert phone.fits_viewport()
    phone.shot("computer-from-the-lobby")

"""Playing the computer in real Chromium: keyboard only, phone and desktop, a responsive page."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import DESKTOP, PHONE, Player, Viewport

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

GAP_MONITOR = """
window.longestGap = 0;
let lastTick = performance.now();
setInterval(() => {
  const now = performance.now();
  window.longestGap = Math.max(window.longestGap, now - lastTick);
  lastTick = now;
}, 20);
"""

ENDINGS = re.compile(r"^(You win|You lose): (three|four) in a row\.$|^A draw: the board is full\.$")


def start_by_keyboard(person: Player, page: str, level: str) -> None:
    """Opens a game page and starts "Play the computer" at a level with the keyboard only."""
    person.open(page)
    person.expect_state("IDLE")
    button = person.page.get_by_role("button", name="Play the computer")
    level_box = person.page.locator("#start").get_by_label("Level")
    # Tab from the top of the page until the level box has the focus, then choose by arrows.
    for _ in range(10):
        person.page.keyboard.press("Tab")
        if level_box.evaluate("e => e === document.activeElement"):
            break
    expect(level_box).to_be_focused()
    order = ["easy", "medium", "strong"]
    for _ in range(len(order)):
        step = order.index(level) - order.index(level_box.input_value())
        if step == 0:
            break
        person.page.keyboard.press("ArrowDown" if step > 0 else "ArrowUp")
    expect(level_box).to_have_value(level)
    person.page.keyboard.press("Shift+Tab")
    expect(button).to_be_focused()
    person.shot("start")
    person.page.keyboard.press("Enter")
    expect(person.page.locator("body")).to_have_attribute("data-state", re.compile("PLAYING_"))


def your_turn_or_end(person: Player) -> bool:
    """Waits for this side's turn or the end; returns whether the game is over."""
    state = person.page.locator("body")
    expect(state).to_have_attribute("data-state", re.compile("PLAYING_TO_MOVE|GAME_ENDED"))
    return state.get_attribute("data-state") == "GAME_ENDED"


@pytest.mark.parametrize("viewport", SIZES)
def test_connect4_against_the_computer_is_played_to_its_end_by_keyboard(
    player: MakePlayer, viewport: Viewport
) -> None:
    person = player("person", viewport)
    start_by_keyboard(person, "/connect4.html", "easy")
    expect(person.page.locator("#you")).to_contain_text("against the computer (Easy)")
    expect(person.page.locator("#share")).to_be_hidden()
    moves = 0
    while not your_turn_or_end(person):
        # The most central column with room, found by arrow keys alone.
        free = [
            c
            for c in (3, 2, 4, 1, 5, 0, 6)
            if "full" not in str(person.column(c).get_attribute("aria-label"))
        ]
        person.key_to_column(free[0])
        moves += 1
        if moves == 2:
            person.shot("midgame")
    expect(person.status).to_have_text(ENDINGS)
    assert moves >= 4
    expect(person.page.locator("#last-move")).to_have_text(
        re.compile(r"^(You|The computer) played")
    )
    assert person.fits_viewport()
    person.shot("ended")


@pytest.mark.parametrize("viewport", SIZES)
def test_xand0_against_the_perfect_computer_never_ends_in_a_win_for_the_person(
    player: MakePlayer, viewport: Viewport
) -> None:
    person = player("person", viewport)
    start_by_keyboard(person, "/xand0.html", "strong")
    expect(person.page.locator("#you")).to_contain_text("against the computer (Strong)")
    while not your_turn_or_end(person):
        person.key_to_cell(free_cells(person)[0])
    expect(person.status).to_have_text(
        re.compile(r"^(You lose: three in a row\.|A draw: the board is full\.)$")
    )
    assert person.fits_viewport()
    person.shot("ended")


def test_the_page_answers_the_keyboard_while_the_strong_computer_thinks(
    player: MakePlayer,
) -> None:
    person = player("person")
    # The page's main thread notes the longest gap between the ticks of a 20 ms timer.
    person.page.add_init_script(GAP_MONITOR)
    start_by_keyboard(person, "/connect4.html", "strong")
    # Whoever the coin made first, the computer soon thinks over its first move.
    if person.page.locator("body").get_attribute("data-state") == "PLAYING_TO_MOVE":
        person.key_to_column(3)
    body = person.page.locator("body")
    expect(body).to_have_attribute("data-thinking", "true")
    seen_thinking = time.perf_counter()
    person.page.evaluate("window.longestGap = 0")
    person.expect_status("The computer is thinking...")
    # While the search runs (two seconds on an open board), the page answers at once: the
    # arrow keys move the board's focus. Checked first, before anything slower (a busy
    # parallel run can spend the search's two seconds on a screenshot).
    person.page.locator(".c4-col[tabindex='0']").focus()
    here = int(str(person.page.evaluate("document.activeElement.dataset.col")))
    started = time.perf_counter()
    person.page.keyboard.press("ArrowLeft" if here > 0 else "ArrowRight")
    expect(person.page.locator(":focus")).not_to_have_attribute("data-col", str(here))
    answered = time.perf_counter() - started
    assert body.get_attribute("data-thinking") == "true"
    assert answered < 0.5, answered
    person.shot("thinking")
    expect(body).to_have_attribute("data-thinking", "false")
    thought = time.perf_counter() - seen_thinking
    person.expect_status("Your turn.")
    # The search was long, yet the page's timer never stalled for long: the worker did the
    # thinking. A search on the page's own thread would stall it for the whole search (over
    # a second, nearly all of `thought`); under a parallel test run on two cores, the
    # scheduler alone has stalled it for 546 ms (usually under 40), so the bound is half the
    # search, which only a search on the page's thread can reach.
    assert thought > 1.0, thought
    gap = person.page.evaluate("window.longestGap")
    assert gap < thought * 1000 / 2, (gap, thought)


def test_reloading_mid_match_resumes_both_the_person_and_the_computer(
    player: MakePlayer,
) -> None:
    person = player("person", PHONE)
    start_by_keyboard(person, "/xand0.html", "medium")
    saved = person.saved_match()
    assert saved is not None and saved["level"] == "medium"
    computer_seat = person.page.evaluate("sessionStorage.getItem('movewire.computer.xand0')")
    assert computer_seat is not None and saved["match"] in computer_seat
    assert not your_turn_or_end(person)
    person.key_to_cell(free_cells(person)[0])
    assert not your_turn_or_end(person)
    board = person.board_text()

    person.page.reload()
    person.expect_status("Your turn.")
    assert person.saved_match() == saved and person.board_text() == board
    expect(person.page.locator("#you")).to_contain_text("against the computer (Medium)")
    # The computer's seat was taken up again too: it answers the next move.
    free = free_cells(person)
    person.key_to_cell(free[0])
    ended = your_turn_or_end(person)
    assert ended or len(free_cells(person)) == len(free) - 2
    person.shot("resumed")


def free_cells(person: Player) -> list[str]:
    """Returns the X and 0 cells still empty, as move texts."""
    found = person.page.locator("[data-cell]").evaluate_all(
        "cells => cells.filter(c => !c.textContent.trim()).map(c => c.dataset.cell)"
    )
    return [str(cell) for cell in found]


def play_out(person: Player) -> None:
    """Plays X and 0 to its end, each time in the first free cell, by keyboard."""
    while not your_turn_or_end(person):
        person.key_to_cell(free_cells(person)[0])
    expect(person.status).to_have_text(ENDINGS)


def test_the_lobby_chooses_the_computers_level_and_clock_remembers_them_and_plays_again(
    player: MakePlayer,
) -> None:
    person = player("person")
    person.open("/")
    card = person.page.locator("#game-xand0")
    card.get_by_label("Level of the computer at X and 0").select_option(label="Strong")
    card.get_by_label("Clock against the computer at X and 0").select_option(label="5 min + 3 s")
    link = card.get_by_role("link", name="Play the computer")
    expect(link).to_have_attribute("href", "xand0.html#computer&level=strong&clock=5%2B3")
    link.click()
    expect(person.page.locator("#you")).to_contain_text("against the computer (Strong)")
    # The computer plays with the clock chosen: both clocks show, the computer's named.
    expect(person.page.locator("#clocks")).to_be_visible()
    expect(person.page.locator("#clocks .clock-who").nth(1)).to_have_text(
        re.compile(r"^Computer \((X|0)\)$")
    )
    expect(person.page.locator("#clocks .clock-time").nth(1)).to_have_text(re.compile(r"^[45]:"))
    kept = person.page.evaluate("JSON.parse(localStorage.getItem('movewire.computer-choice'))")
    assert kept == {"level": "strong", "clock": "5+3"}, kept
    play_out(person)
    person.shot("ended-strong")

    # After the game: the computer again, at a level chosen here; Play again (a stranger's
    # game) is not offered against the computer.
    again = person.page.get_by_role("button", name="Play the computer again")
    expect(again).to_be_visible()
    expect(person.page.get_by_role("button", name="Play again", exact=True)).to_be_hidden()
    level = person.page.locator("#again-level")
    expect(level).to_have_value("strong")
    level.select_option("easy")
    again.click()
    expect(person.page.locator("#you")).to_contain_text("against the computer (Easy)")
    expect(person.page.locator("body")).to_have_attribute("data-state", re.compile("PLAYING_"))
    expect(person.page.locator("#clocks")).to_be_visible()  # the clock chosen last, kept
    kept = person.page.evaluate("JSON.parse(localStorage.getItem('movewire.computer-choice'))")
    assert kept == {"level": "easy", "clock": "5+3"}, kept

    # The lobby shows the last choice, for both games.
    person.open("/")
    for game, name in (("xand0", "X and 0"), ("connect4", "Connect Four")):
        card = person.page.locator(f"#game-{game}")
        expect(card.get_by_label(f"Level of the computer at {name}")).to_have_value("easy")
        expect(card.get_by_label(f"Clock against the computer at {name}")).to_have_value("5+3")
        expect(card.get_by_role("link", name="Play the computer")).to_have_attribute(
            "href", f"{game}.html#computer&level=easy&clock=5%2B3"
        )
    person.shot("lobby-remembers")


def test_a_reload_after_the_end_shows_the_result_and_seats_nobody_again(
    player: MakePlayer,
) -> None:
    person = player("person", PHONE)
    person.open("/xand0.html#computer&level=strong")
    expect(person.page.locator("#you")).to_contain_text("against the computer (Strong)")
    play_out(person)
    ended = person.status.inner_text()
    board = person.board_text()
    last = person.page.locator("#last-move").inner_text()

    asked: list[str] = []
    person.page.context.on("request", lambda request: asked.append(request.url))
    person.page.reload()
    person.expect_status(ended)
    person.expect_state("GAME_ENDED")
    assert person.board_text() == board
    expect(person.page.locator("#last-move")).to_have_text(last)
    expect(person.page.locator("#you")).to_contain_text("against the computer (Strong)")
    expect(person.page.get_by_role("button", name="Play the computer again")).to_be_visible()
    expect(person.page.get_by_role("button", name="Resign")).to_be_hidden()
    expect(person.page.locator(".x0-board")).not_to_have_class(re.compile("enabled"))
    person.page.wait_for_timeout(1000)
    # Nothing was asked of the relay: no seat taken up again, no computer started.
    relayed = [url for url in asked if "/v1/" in url or "computer-worker" in url]
    assert not relayed, relayed
    person.shot("reloaded-after-the-end")

    person.page.get_by_role("button", name="Play the computer again").click()
    expect(person.page.locator("body")).to_have_attribute("data-state", re.compile("PLAYING_"))
    expect(person.page.locator(".x0-cell[data-mark='']")).not_to_have_count(0)
    assert any("/v1/seek" in url for url in asked), asked

"""The player's pass, in real Chromium through one real relay, at desktop and phone size, by
keyboard alone (Tab, Shift+Tab, the arrow keys and Enter; no click): two players type their
names and seek a rated random opponent of X and 0, one from the lobby and one from the game
page; a third seeker who comes meanwhile waits alone, is never seated with them, not even for a
moment, and cancels at the end; a spectator watches the match live from its replay link (a
random match is not listed in the lobby: only public seeks are). The players chat a line each
way and play to a win on boards whose cells stay square; the winner and the loser read their
words and their ratings' change, the spectator reads every move, the names and who won.
axe-core finds no serious or critical violation on the lobby, the game page mid-game and at
the end, and the spectator's page. Screenshots of each step are kept."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import no_severe_violations
from tests.browser.conftest import MakePlayer
from tests.browser.keyboard import TABS, say, tab_to
from tests.browser.players import ARROWS, DESKTOP, PHONE, Player, Viewport
from tests.browser.relay_api import WIN, match_status, until_status
from tests.browser.seating import seated, waiting_match
from tests.support.relay_process import RelayProcess

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

STATES = """() => {
  window.movewireStates = [];
  new MutationObserver(() => {
    const state = document.body?.dataset.state;
    if (state) window.movewireStates.push(state);
  }).observe(document, {
    attributes: true, attributeFilter: ["data-state"], subtree: true,
  });
}"""
"""Records every state a page's host enters (an init script: it runs before the page's own)."""

ON_BOARD = "document.activeElement?.matches(\"[data-cell][tabindex='0']\") ?? false"
"""Whether the board's one Tab stop has the focus: the cell the arrow keys move from."""

CELLS = """board => [...board.querySelectorAll('[data-cell]')].map((cell) => {
  const box = cell.getBoundingClientRect();
  return [box.width, box.height];
})"""
"""The width and height of each cell of a board."""

NAME_GAPS = """line => [...line.querySelectorAll('.shown-name')].map((name) => {
  const label = document.createRange();
  label.selectNodeContents(name.previousSibling);
  return name.getBoundingClientRect().left - label.getBoundingClientRect().right;
})"""
"""How far each name of the spectator's players line is from its side's label ("X: ")."""


def expect_square_cells(side: Player) -> None:
    """Asserts that the board's nine cells are squares of one size, rows with a mark or not."""
    cells = side.page.locator("#board").evaluate(CELLS)
    sizes = [size for cell in cells for size in cell]
    assert len(cells) == 9 and max(sizes) - min(sizes) <= 1, f"{side}'s cells: {cells}"


def rated_from_lobby(side: Player, name: str, checked: bool = False) -> None:
    """Types the name in the lobby, chooses rated for X and 0 and follows Play a random
    opponent, by keyboard; checked: runs axe-core on the lobby first, and keeps a shot."""
    side.open("/")
    page = side.page
    tab_to(page, page.get_by_label("Your name"))
    page.keyboard.type(name)
    card = page.locator("#game-xand0")
    tab_to(page, card.get_by_label("Rated at X and 0"))
    page.keyboard.press("ArrowDown")  # "Yes, any rating"
    page.keyboard.press("Shift+Tab")
    random = card.get_by_role("link", name="Play a random opponent")
    expect(random).to_be_focused()
    expect(random).to_have_attribute("href", re.compile(r"rated=1"))
    if checked:
        no_severe_violations(side, "the lobby")
        side.shot("0-lobby")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/xand0\.html"))


def rated_from_game_page(side: Player, name: str) -> None:
    """Types the name in the game page's start section, chooses rated and presses Play a
    random opponent, by keyboard."""
    side.open("/xand0.html")
    page = side.page
    side.expect_state("IDLE")
    tab_to(page, page.get_by_label("Your name"))
    page.keyboard.type(name)
    tab_to(page, page.locator("#near-rating"))
    page.keyboard.press("ArrowDown")  # "Yes, any rating"
    tab_to(page, page.get_by_role("button", name="Play a random opponent", exact=True))
    page.keyboard.press("Enter")


def key_to_cell(side: Player, move: str) -> None:
    """Plays a cell by keyboard alone: Tab to the board unless it has the focus, the arrow
    keys to the cell, then Enter."""
    side.expect_state("PLAYING_TO_MOVE")
    page = side.page
    # The board is one Tab stop, wherever the focus is (the chat field, say); its cell may be
    # a taken one (aria-disabled), which the arrow keys leave.
    for _ in range(TABS):
        if page.evaluate(ON_BOARD):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError(f"{side}: Tab never reached the board")
    here = str(page.evaluate("document.activeElement.dataset.cell"))
    col, row = int(here[0]), int(here[1])
    for axis, target in ((0, int(move[0])), (1, int(move[1]))):
        while (col, row)[axis] != target:
            step = 1 if target > (col, row)[axis] else -1
            page.keyboard.press(ARROWS[(step, 0) if axis == 0 else (0, step)])
            col, row = (col + step, row) if axis == 0 else (col, row + step)
    expect(page.locator(":focus")).to_have_attribute("data-cell", move)
    page.keyboard.press("Enter")


@pytest.mark.parametrize("viewport", SIZES)
def test_two_players_a_spectator_and_a_third_seeker_by_keyboard_alone(
    player: MakePlayer, relay: RelayProcess, viewport: Viewport
) -> None:
    ann, bob, cat, eve = (player(name, viewport) for name in ("ann", "bob", "cat", "eve"))
    cat.page.context.add_init_script(script=f"({STATES})()")

    # Ann seeks from the lobby, Bob from the game page; Cat comes as soon as Bob is answered.
    rated_from_lobby(ann, "Ann", checked=True)
    ann.expect_status("Waiting for an opponent...")
    ann.shot("1-waiting")
    rated_from_game_page(bob, "Bob")
    match = bob.match_id()  # answered: seated with Ann at once, or waiting
    rated_from_lobby(cat, "Cat")
    x, o = seated(ann, bob)
    assert ann.match_id() == match
    cat.expect_status("Waiting for an opponent...")
    alone = waiting_match(cat)
    assert alone != match
    assert match_status(relay, alone) == "waiting"
    winner, loser = ("Ann", "Bob") if x is ann else ("Bob", "Ann")
    x.expect_status("Your turn.")
    o.expect_status("Opponent's turn...")
    for side, other in ((ann, "Bob"), (bob, "Ann")):
        expect(side.page.locator("#opponent-name")).to_have_text(f"Opponent: {other}")
    cat.shot("2-waiting-alone")

    # The spectator opens the match's replay page: a random match is not listed in the lobby
    # (only public seeks are), so its link is the way to watch it.
    eve.open(f"/replay.html#match={match}")
    players = eve.page.locator("#players")
    expect(players).to_contain_text(f"X: {winner}")
    expect(players).to_contain_text(f"0: {loser}")
    # Each name a space from its side's label, not a flex gap away.
    gaps = players.evaluate(NAME_GAPS)
    assert len(gaps) == 2 and all(0 <= gap < 8 for gap in gaps), gaps
    position = eve.page.locator("#position")
    eve.shot("3-watching")

    def played(i: int) -> None:
        """Plays WIN[i] by keyboard; the opponent and the spectator see it."""
        mover, other = (x, o) if i % 2 == 0 else (o, x)
        key_to_cell(mover, WIN[i])
        expect(other.cell(WIN[i])).to_have_text("X0"[i % 2])
        expect(position).to_contain_text(f"Move {i + 1} of {i + 1}: {'X0'[i % 2]} played")
        expect(cat.page.locator("body")).to_have_attribute("data-state", "LISTENING")

    played(0)
    played(1)
    # A line each way, by keyboard, mid-game.
    say(x, "good luck")
    expect(o.page.locator("#chat .chat-lines li")).to_have_text([f"{winner}: good luck"])
    say(o, "thanks, you too")
    expect(x.page.locator("#chat .chat-lines li")).to_have_text(
        ["You: good luck", f"{loser}: thanks, you too"]
    )
    expect(o.page.locator("#chat .chat-lines li")).to_have_text(
        [f"{winner}: good luck", "You: thanks, you too"]
    )
    for side in (x, o, eve):
        expect_square_cells(side)  # row 1 has two marks, rows 2 and 3 none
    for side in (x, o):
        no_severe_violations(side, f"the game page mid-game at {viewport}")
        side.shot("4-mid-game")
    for i in range(2, len(WIN)):
        played(i)

    # The end: each reads their own words and rating's change, the spectator who won.
    x.expect_status("You win: three in a row.")
    o.expect_status("You lose: three in a row.")
    expect(x.page.locator("#rating-change")).to_have_text("Your rating: 1500 → 1741 (+241)")
    expect(o.page.locator("#rating-change")).to_have_text("Your rating: 1500 → 1258 (−242)")
    eve.expect_status(f"X ({winner}) won: three in a row, and 0 ({loser}) agreed.")
    for side in (x, o, eve):
        expect(side.page.locator(".x0-cell.win")).to_have_count(3)
        no_severe_violations(side, f"the end at {viewport}")
    x.shot("5-won")
    o.shot("5-lost")
    eve.shot("5-watched")
    eve.page.keyboard.press("Home")  # the spectator steps through it by keyboard
    eve.page.keyboard.press("ArrowRight")
    expect(position).to_have_text("Move 1 of 5: X played at row 1, column 1.")

    # Cat was never seated, not for a moment, and cancels its seek by keyboard.
    assert match_status(relay, alone) == "waiting"
    tab_to(cat.page, cat.page.get_by_role("button", name="Cancel", exact=True))
    cat.page.keyboard.press("Enter")
    cat.expect_state("IDLE")
    states = cat.page.evaluate("window.movewireStates")
    assert "LISTENING" in states and states[-1] == "IDLE", states
    assert not [s for s in states if s.startswith("PLAYING") or s == "GAME_ENDED"], states
    until_status(relay, alone, "match/expired")  # what a cancelled seek answers
    cat.shot("6-cancelled")

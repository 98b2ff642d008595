"""Dots and Boxes in real Chromium: two players through a real relay; whoever closes a box
draws again (the partner's host passes), and the boxes are counted at the end."""

from __future__ import annotations

import json
import re
import time
import urllib.request

from playwright.sync_api import expect

from tests.browser.conftest import WAIT_MS, MakePlayer
from tests.browser.players import PHONE, Player
from tests.support.relay_process import RelayProcess

ORDER = [f"h{r}{c}" for r in range(4) for c in range(3)] + [
    f"v{r}{c}" for r in range(3) for c in range(4)
]
"""The lines in the order the players draw them: every horizontal line, then the verticals,
which close boxes one after another."""


def next_mover(*sides: Player) -> Player:
    """Returns the side whose turn it is, once one has it (a hang fails by name)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        for side in sides:
            if side.page.locator("body").get_attribute("data-state") == "PLAYING_TO_MOVE":
                return side
        sides[0].page.wait_for_timeout(20)
    raise AssertionError(f"neither side got the turn within {WAIT_MS} ms")


def test_two_players_play_dots_and_boxes_with_a_closed_box_drawing_again(
    player: MakePlayer, relay: RelayProcess
) -> None:
    a, b = player("a"), player("b")
    a.open("/")
    a.page.locator("#game-dots").get_by_role("link", name="Play a random opponent").click()
    a.expect_state("LISTENING")
    b.open("/dots.html#play")
    x, o = (a, b) if a.is_first() else (b, a)
    x.expect_status("Your turn.")
    movers = []
    for line in ORDER:
        mover = next_mover(x, o)
        mover.page.locator(f'[data-line="{line}"]').click()
        movers.append(mover.name)
        for side in (x, o):
            expect(side.page.locator(f'[data-line="{line}"]')).to_have_class(re.compile("drawn"))
    for side in (x, o):
        side.expect_state("GAME_ENDED")
    again = [i for i in range(1, len(movers)) if movers[i] == movers[i - 1]]
    assert again, movers  # a box closed: its closer drew the next line too
    verdicts = {x.status.inner_text(), o.status.inner_text()}
    boxes = re.fullmatch(r"You win: more boxes: (\d) to (\d)\.", max(verdicts))
    assert boxes is not None and int(boxes[1]) + int(boxes[2]) == 9, verdicts
    assert verdicts == {boxes[0], boxes[0].replace("You win", "You lose")}
    for side in (x, o):
        expect(side.page.locator(".dots-box[data-owner]:not([data-owner=''])")).to_have_count(9)
    saved = x.saved_match()
    assert saved is not None
    base = f"{relay.url}/v1/matches/{saved['match']}/events"
    with urllib.request.urlopen(f"{base}?after=0") as r:
        events = json.load(r)["events"]
    if events[-1]["type"] != "ended":  # the loser's confirm may still be on its way: held for it
        with urllib.request.urlopen(f"{base}?after={len(events)}&wait=5", timeout=10) as r:
            events += json.load(r)["events"]
    assert [e["type"] for e in events].count("pass") == len(again)
    assert events[-1]["reason"] == "agreed"
    x.shot("finished")


def line_style(side: Player, line: str) -> dict[str, float]:
    """Returns how a line shows: its button's height and width (the finger's target), the drawn
    stroke's thickness, and the stroke colour's opacity (0: not shown at all)."""
    found = side.page.locator(f'[data-line="{line}"]').evaluate(
        """button => {
          const stroke = getComputedStyle(button, "::before");
          const box = button.getBoundingClientRect();
          const alpha = (colour) => {
            const parts = colour.match(/[\\d.]+/g) ?? [];
            if (colour.startsWith("rgba") || colour.includes("/")) return Number(parts[3] ?? 1);
            if (colour === "transparent" || parts.length === 0) return 0;
            return colour.startsWith("color(") ? Number(parts[3] ?? 1) : 1;
          };
          const thick = button.classList.contains("dots-h") ? stroke.height : stroke.width;
          return {height: box.height, width: box.width, stroke: parseFloat(thick),
                  alpha: alpha(stroke.backgroundColor)};
        }"""
    )
    return {key: float(value) for key, value in found.items()}


def key_to_line(side: Player, line: str, arrows: list[str]) -> None:
    """Draws a line by keyboard alone: into the board, the arrow keys given, then Enter."""
    side.expect_state("PLAYING_TO_MOVE")
    side.page.locator(".dots-line[tabindex='0']").focus()
    for key in arrows:
        side.page.keyboard.press(key)
    expect(side.page.locator(":focus")).to_have_attribute("data-line", line)
    side.page.keyboard.press("Enter")


def test_dots_on_a_phone_shows_the_score_faint_lines_plain_words_and_plays_by_arrow_keys(
    player: MakePlayer,
) -> None:
    desk, phone = player("desktop"), player("phone", PHONE)
    desk.open("/dots.html#room=arrows")
    phone.open("/dots.html#room=arrows")
    x, o = (desk, phone) if desk.is_first() else (phone, desk)
    for side, mark, other in ((x, "X", "O"), (o, "O", "X")):
        expect(side.page.locator(".dots-score")).to_have_text(
            f"You ({mark}): 0 boxesOpponent ({other}): 0 boxes"
        )

    # Lines not drawn yet show faintly with no hover (a phone has none), and a drawn one is a
    # few pixels thick inside a target a finger can hit.
    faint = line_style(phone, "v12")
    assert 0 < faint["alpha"] < 0.5, faint
    assert 2 <= faint["stroke"] <= 6, faint
    assert faint["width"] >= 20, faint

    # The board is one Tab stop: the arrow keys move between its 24 lines.
    for side in (x, o):
        expect(side.page.locator("#board [tabindex='0']")).to_have_count(1)
        expect(side.page.locator("#board .dots-line[tabindex='-1']")).to_have_count(23)
    key_to_line(x, "h00", [])
    key_to_line(o, "h10", ["ArrowDown", "ArrowDown"])  # h00, then v00 below it, then h10
    key_to_line(x, "v00", ["Home", "ArrowDown", "ArrowUp", "ArrowDown", "Home"])
    expect(phone.page.locator('[data-line="v00"]')).to_have_class(re.compile("drawn"))
    # o closes the top-left box with the fourth side, and so draws again.
    key_to_line(o, "v01", ["ArrowUp", "ArrowRight"])  # from h10: v00 above it, then v01
    o.expect_state("PLAYING_TO_MOVE")
    expect(o.page.locator(".dots-score .dots-tally").first).to_have_text("You (O): 1 box")
    expect(x.page.locator(".dots-score .dots-tally").last).to_have_text("Opponent (O): 1 box")
    expect(o.page.locator("#last-move")).to_have_text(
        "You drew the vertical line at row 1, column 2."
    )
    expect(x.page.locator("#last-move")).to_have_text(
        "Opponent drew the vertical line at row 1, column 2."
    )
    label = o.page.locator('[data-line="v01"]').get_attribute("aria-label")
    assert label == "Vertical line at row 1, column 2: drawn, last move", label
    for side in (x, o):
        words = side.page.locator("#last-move").inner_text() + side.board_text()
        assert not re.search(r"\b[hv]\d\d\b", words), words  # no move codes

    drawn = line_style(phone, "v01")
    assert drawn["alpha"] == 1 and 2 <= drawn["stroke"] <= 6, drawn
    # Tab leaves the board at once (it took 24 presses when each line was a Tab stop).
    o.page.locator(".dots-line[tabindex='0']").focus()
    o.page.keyboard.press("Tab")
    expect(o.page.locator(":focus")).not_to_have_class(re.compile("dots-line"))
    assert phone.fits_viewport()
    phone.shot("score-and-lines")
    desk.shot("score-and-lines")

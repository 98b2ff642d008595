"""What the pages say, in real Chromium: "opponent" for a person and "the computer" when
playing it (never "partner"), 0 (zero) in X and 0, "Tap" on a touch screen, and a spoken
clock that tells the true time."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import DESKTOP, PHONE, Player

SPOKEN = """async (times) => {
  const { ClockView } = await import("./clock-view.mjs");
  const { TimeControl } = await import("./clock.mjs");
  const block = document.createElement("div");
  block.innerHTML = '<p class="clock"><span class="clock-who"></span> <span class="clock-time">' +
    '</span></p>'.repeat(2) + '<p class="clock-spoken"></p>';
  document.body.append(block);
  const view = new ClockView(block, ["X", "0"]);
  let left = 0;
  const clock = { left: () => [left, 300], turn: 0, control: TimeControl.fischer(300, 3) };
  const host = { ticket: { seat: 0 }, clock };
  const said = [];
  for (const time of times) {
    left = time;
    view.update(host, 0);
    said.push([block.querySelector(".clock-time").textContent,
               block.querySelector(".clock-spoken").textContent]);
  }
  view.update(null);
  block.remove();
  return said;
}"""


def test_the_spoken_clock_tells_the_true_time_at_each_step(player: MakePlayer) -> None:
    person = player("person")
    person.open("/xand0.html")
    person.expect_state("IDLE")
    # A turn that starts with 2 seconds left says 2, not 10.
    assert person.page.evaluate(SPOKEN, [2.3]) == [["0:02", "Your clock: 2 seconds left."]]
    times = [75.2, 61, 59.9, 50.2, 49.5, 21, 20.4, 10.9, 7, 5.5, 4.1, 2.3, 0.4]
    said = person.page.evaluate(SPOKEN, times)
    # Said anew at each step (a minute, ten seconds, then every second from 5), always the
    # time shown at that moment.
    assert [spoken for _, spoken in said] == [
        "Your clock: 1 minute left.",
        "Your clock: 1 minute left.",
        "Your clock: 59 seconds left.",
        "Your clock: 50 seconds left.",
        "Your clock: 50 seconds left.",
        "Your clock: 21 seconds left.",
        "Your clock: 20 seconds left.",
        "Your clock: 10 seconds left.",
        "Your clock: 10 seconds left.",
        "Your clock: 5 seconds left.",
        "Your clock: 4 seconds left.",
        "Your clock: 2 seconds left.",
        "Your clock: 0 seconds left.",
    ]
    for shown, spoken in said:
        if spoken != said[0][1] and shown.startswith("0:"):
            assert int(shown[2:]) <= int(re.findall(r"\d+", spoken)[0]) + 9, (shown, spoken)


def your_turn_or_end(person: Player) -> bool:
    """Waits for this side's turn or the end; returns whether the game is over."""
    state = person.page.locator("body")
    expect(state).to_have_attribute("data-state", re.compile("PLAYING_TO_MOVE|GAME_ENDED"))
    return state.get_attribute("data-state") == "GAME_ENDED"


def test_against_the_computer_the_page_names_the_computer_shows_zero_and_says_tap(
    player: MakePlayer,
) -> None:
    person = player("person", PHONE)
    person.open("/xand0.html#computer&level=easy")
    help_text = person.page.locator(".help").inner_text()
    assert "Tap a square" in help_text and "Click" not in help_text, help_text
    # The computer moves at least once: its mark is a zero, wherever it shows.
    if not your_turn_or_end(person):
        person.play_cell(
            next(c for c in ("11", "00", "22", "02", "20") if not person.cell(c).inner_text())
        )
    expect(person.page.locator("[data-mark='0']")).not_to_have_count(0)
    expect(person.page.locator("[data-mark='O']")).to_have_count(0)
    marks = person.page.locator("[data-cell]").all_inner_texts()
    assert "O" not in marks and "0" in marks, marks
    you = person.page.locator("#you").inner_text()
    assert re.fullmatch(r"You play (X|0) against the computer \(Easy\)(, moving first)?\.", you)
    expect(person.page.locator("#last-move")).to_have_text(
        re.compile(r"^(You|The computer) played (X|0) at row \d, column \d\.$")
    )
    if your_turn_or_end(person):
        return  # the easy computer's random moves rarely end a game this soon
    person.page.get_by_role("button", name="Resign").click()
    expect(person.page.locator("#confirm-resign-title")).to_have_text(
        "Resign this game? The computer wins."
    )
    person.page.get_by_role("button", name="Resign", exact=True).last.click()
    person.expect_status("You resigned: the computer wins.")
    person.shot("resigned")


def test_against_a_person_the_page_says_opponent_never_partner(player: MakePlayer) -> None:
    a, b = player("a", DESKTOP), player("b", PHONE)
    a.open("/xand0.html#room=words")
    b.open("/xand0.html#room=words")
    x, o = (a, b) if a.is_first() else (b, a)
    x.play_cell("11")
    expect(o.page.locator("#last-move")).to_have_text("Opponent played X at row 2, column 2.")
    help_text = a.page.locator(".help").inner_text()
    assert "Click a square" in help_text, help_text  # a mouse clicks
    o.page.get_by_role("button", name="Resign").click()
    expect(o.page.locator("#confirm-resign-title")).to_have_text(
        "Resign this game? Your opponent wins."
    )
    o.page.get_by_role("button", name="Resign", exact=True).last.click()
    o.expect_status("You resigned: your opponent wins.")
    x.expect_status("Your opponent resigned: you win.")
    for side in (x, o):
        assert "partner" not in side.page.locator("main").inner_text().lower()

"""The chat and the players' names, in real Chromium through one real relay: a reader scrolled
back to read is shown "New messages" (a button, reached by Tab, announced politely) that takes
them down and goes once they are at the newest line; a sender the relay paces sees its lines
waiting, then sent, in order, each once; a player without a name is "Anonymous" on the game page,
in the lobby and in the way back; a long name is cut with an ellipsis, whole in its title, in the
lobby's rows, beside the board and in the way back."""

from __future__ import annotations

import re
import time
import urllib.error
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Locator, expect

from tests.browser.axe import no_severe_violations
from tests.browser.conftest import WAIT_MS, MakePlayer
from tests.browser.keyboard import say, tab_to
from tests.browser.players import Player
from tests.browser.relay_api import call
from tests.browser.seating import start_room, waiting_match
from tests.support.relay_process import RelayProcess, quick_flags

CHAT_PER_MINUTE = 60
"""The relay's pace of chat: a burst of 60 lines a seat, then one a second (a 429 meanwhile)."""

LONG = "Maximiliana-Bartholomea-Ravensby"
"""A name of 32 characters, the most a name may have, with no space to wrap at."""

NEW = "New messages"
"""The mark's accessible name (its arrow is hidden from screen readers)."""

AT_END = "list => list.scrollHeight - list.scrollTop - list.clientHeight <= 1"
"""Whether a chat list shows its newest line (scrolled to its end)."""

SNAPSHOT = """chat => ({
  lines: [...chat.querySelectorAll('.chat-lines li')].map((li) => li.textContent),
  waiting: [...chat.querySelectorAll('.chat-waiting li')].map((li) => li.textContent),
  note: chat.querySelector('.chat-waiting-note')?.textContent ?? null,
})"""
"""What a chat panel shows at one moment, read at once: its lines, those waiting, the note."""

CUT = """name => ({
  text: name.textContent,
  title: name.getAttribute('title'),
  cut: name.scrollWidth > name.clientWidth,
  ellipsis: getComputedStyle(name).textOverflow === 'ellipsis',
  oneLine: name.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(name).fontSize),
  right: name.getBoundingClientRect().right,
})"""
"""How a name element is drawn: its words, its title, whether it is cut, on one line, its right."""


@pytest.fixture(scope="module")
def relay() -> Iterator[RelayProcess]:
    """Returns one relay for the module (each test seats its own match), pacing the chat."""
    with RelayProcess(*quick_flags(), "--chat-per-minute", str(CHAT_PER_MINUTE)) as process:
        yield process


def post_chat(relay: RelayProcess, side: Player, text: str) -> None:
    """Says a chat line as `side`'s seat through the relay's API (quicker than typing it)."""
    saved = side.saved_match()
    assert saved is not None, f"{side} keeps no match"
    call(relay, f"/v1/matches/{saved['match']}/chat", {"text": text}, str(saved["token"]))


def spend_chat(relay: RelayProcess, side: Player) -> int:
    """Says lines as `side`'s seat until the relay paces it (429); returns how many it took."""
    for n in range(CHAT_PER_MINUTE):
        try:
            post_chat(relay, side, f"spent {n}")
        except urllib.error.HTTPError as error:
            assert error.code == 429, error
            return n
    raise AssertionError(f"the relay took {CHAT_PER_MINUTE} more lines without pacing them")


def poll(what: str, check: Callable[[], bool], within_ms: int = WAIT_MS) -> None:
    """Returns once `check()` is true, polled from here (the pages' Content-Security-Policy
    refuses the evaluated strings of Playwright's wait_for_function); fails by name."""
    deadline = time.monotonic() + within_ms / 1000
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {within_ms} ms"
        time.sleep(0.05)


def expect_at_end(lines: Locator) -> None:
    """Waits until the chat list shows its newest line."""
    poll("the chat list shows its newest line", lambda: bool(lines.evaluate(AT_END)))


def test_a_reader_scrolled_back_is_shown_new_messages_and_taken_down_by_keyboard(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    x, o, _ = start_room(ann, bob)
    # Neither typed a name: each reads the other as the one neutral word, never a blank line.
    for side in (x, o):
        expect(side.page.locator("#opponent-name")).to_have_text("Opponent: Anonymous")
    for n in range(14):
        post_chat(relay, x, f"line {n}")
    lines = o.page.locator("#chat .chat-lines")
    mark = o.page.get_by_role("button", name=NEW, exact=True)
    expect(lines.locator("li")).to_have_count(14)
    assert lines.evaluate("list => list.scrollHeight > list.clientHeight")
    # A reader at the end follows the new lines, with no mark.
    expect_at_end(lines)
    expect(mark).to_be_hidden()

    # Scrolled back to read: a new line leaves them there, and the mark shows, politely said.
    lines.evaluate("list => { list.scrollTop = 0; }")
    post_chat(relay, x, "are you there?")
    expect(lines.locator("li")).to_have_count(15)
    expect(mark).to_be_visible()
    expect(mark.locator("xpath=..")).to_have_attribute("aria-live", "polite")
    assert lines.evaluate("list => list.scrollTop") == 0
    no_severe_violations(o, "the new messages mark shown")
    o.shot("new-messages")

    # By keyboard: Tab reaches it, Enter takes the reader to the newest line; the mark goes,
    # and the focus goes on to the field, to answer.
    tab_to(o.page, mark)
    o.page.keyboard.press("Enter")
    expect_at_end(lines)
    expect(mark).to_be_hidden()
    expect(o.page.get_by_label("Say something to your opponent")).to_be_focused()

    # Scrolled back again, a line brings the mark back; scrolling down by hand takes it away.
    lines.evaluate("list => { list.scrollTop = 0; }")
    post_chat(relay, x, "still there?")
    expect(mark).to_be_visible()
    lines.evaluate("list => { list.scrollTop = list.scrollHeight; }")
    expect(mark).to_be_hidden()
    # The sender, at the end all along, followed every line and never saw the mark.
    sent = x.page.locator("#chat .chat-lines")
    expect(sent.locator("li")).to_have_count(16)
    expect_at_end(sent)
    expect(x.page.get_by_role("button", name=NEW, exact=True)).to_be_hidden()


def test_a_paced_sender_sees_its_lines_waiting_then_sent_in_order_each_once(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    x, o, _ = start_room(ann, bob)
    # The seat's burst is spent: each line it says now waits a second for the relay.
    for n in range(CHAT_PER_MINUTE):
        post_chat(relay, x, f"burst {n}")
    expect(x.page.locator("#chat .chat-lines li")).to_have_count(CHAT_PER_MINUTE)
    # A slow machine took seconds to show the burst, and the pace gave a line back each
    # second of it: spend those too, so that the lines typed next wait whatever the load.
    burst = CHAT_PER_MINUTE + spend_chat(relay, x)
    expect(x.page.locator("#chat .chat-lines li")).to_have_count(burst)
    said = ["first in line", "second in line", "third in line", "fourth in line"]
    started = time.monotonic()
    for text in said:
        say(x, text)
    chat = x.page.locator("#chat")
    most_waiting = 0
    notes: set[str] = set()
    while True:
        shown = chat.evaluate(SNAPSHOT)
        waiting = [line for line in shown["waiting"] if line.endswith("sending…")]
        most_waiting = max(most_waiting, len(waiting))
        if shown["note"]:
            notes.add(shown["note"])
        # Nothing twice: a line is waiting or shown, never both, never shown twice.
        for text in said:
            seen = [line for line in shown["lines"] + shown["waiting"] if text in line]
            assert len(seen) <= 1, f"{text!r} shows {len(seen)} times: {shown}"
        if [line for line in shown["lines"] if "in line" in line] == [f"You: {t}" for t in said]:
            break
        assert time.monotonic() - started < WAIT_MS / 1000, f"not all sent: {shown}"
        time.sleep(0.05)
    took = time.monotonic() - started
    # Typed in well under a second, while each waits a second behind the one before.
    assert most_waiting >= 3, f"at most {most_waiting} lines were shown waiting"
    assert any(re.fullmatch(r"[1-4] lines? waiting to send…", note) for note in notes), notes
    # All sent: nothing waits, and the note is gone.
    expect(chat.locator(".chat-waiting")).to_be_hidden()
    expect(chat.locator(".chat-waiting-note")).to_have_text("")
    expect(chat.locator(".chat-waiting-note")).to_have_attribute("role", "status")
    # The partner reads them once each, in the order said, after the burst.
    expect(o.page.locator("#chat .chat-lines li")).to_have_count(burst + len(said))
    tail = o.page.locator("#chat .chat-lines li").all_text_contents()[-len(said) :]
    assert tail == [f"Opponent: {text}" for text in said]
    print(f"four paced lines sent in {took:.1f} s; at most {most_waiting} shown waiting; {notes}")
    # Chromium reports each paced line's refusals (429) on the console: those are expected.
    x.errors[:] = [error for error in x.errors if "429 (Too Many Requests)" not in error]


def names_in(locator: Locator) -> list[dict[str, Any]]:
    """Returns how each name element under `locator` is drawn (CUT)."""
    return [dict(name.evaluate(CUT)) for name in locator.locator(".shown-name").all()]


def expect_cut(name: dict[str, Any], where: str) -> None:
    """Asserts a long name is whole in its words and title, cut with an ellipsis, on one line."""
    assert name["text"] == LONG and name["title"] == LONG, (where, name)
    assert name["cut"] and name["ellipsis"] and name["oneLine"], (where, name)


def left_of(locator: Locator) -> float:
    """Returns the left edge of an element on the page."""
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not drawn"
    return box["x"]


def lobby_of(side: Player, label: str) -> Player:
    """Returns a second tab of side's browser on the lobby (the way back reads what it keeps)."""
    tab = Player(side.page.context.new_page(), f"{side.name}-{label}", side.shots)
    tab.open("/")
    return tab


def test_a_nameless_player_is_anonymous_and_a_long_name_is_cut_with_its_title(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob, looker = player("ann"), player("bob"), player("looker")
    # Ann types the longest name there is in the lobby and opens a public game; Bob has no name.
    ann.open("/")
    ann.page.get_by_label("Your name").fill(LONG)
    ann.page.locator("#game-xand0").get_by_role("button", name="Create a public game").click()
    match = waiting_match(ann)
    looker.open("/")
    row = looker.page.locator(f"[data-lobby='xand0'] .open-list li[data-match='{match}']")
    expect(row).to_contain_text(re.compile(rf"^{LONG} · Opened at "))
    join = row.get_by_role("link", name=re.compile("^Join"))
    expect(join).to_have_attribute(
        "aria-label", re.compile(rf"^Join the game opened by {LONG} at ")
    )
    [name] = names_in(row)
    expect_cut(name, "an open game's row")
    # Cut before the button, never under it.
    assert name["right"] <= left_of(join), name

    bob.open("/")
    bob.page.locator(f"[data-lobby='xand0'] .open-list li[data-match='{match}']").get_by_role(
        "link", name=re.compile("^Join")
    ).click()
    for side in (ann, bob):
        expect(side.page.locator("body")).to_have_attribute("data-state", re.compile("PLAYING_.*"))
    live = looker.page.locator(f"[data-lobby='xand0'] .live-list li[data-match='{match}']")
    expect(live).to_contain_text(re.compile(rf"^{LONG} vs Anonymous · Started "))
    first, nameless = names_in(live)
    expect_cut(first, "a live match's row")
    assert nameless["text"] == "Anonymous" and nameless["title"] is None, nameless
    watch = live.get_by_role("link", name=re.compile("^Watch"))
    expect(watch).to_have_attribute(
        "aria-label", re.compile(rf"^Watch the match of {LONG} vs Anonymous ")
    )
    assert first["right"] <= left_of(watch), first
    no_severe_violations(looker, "the lobby with a long name and a nameless one")
    looker.shot("lobby-names")

    # Beside the board: Ann reads "Anonymous"; Bob reads her name cut, whole in its title.
    expect(ann.page.locator("#opponent-name")).to_have_text("Opponent: Anonymous")
    expect(bob.page.locator("#opponent-name")).to_have_text(f"Opponent: {LONG}")
    [beside] = names_in(bob.page.locator("#opponent-name"))
    expect_cut(beside, "the table beside the board")
    assert bob.fits_viewport()
    bob.shot("long-name-beside-the-board")

    # The way back, in another tab of each browser: the opponent named there too.
    backs = [lobby_of(ann, "lobby"), lobby_of(bob, "lobby")]
    for back, words in zip(backs, ["against Anonymous", f"against {LONG}"], strict=True):
        who = back.page.locator(f"#way-back li[data-match='{match}'] .way-back-who")
        expect(who).to_have_text(words)
    [way_back] = names_in(
        backs[1].page.locator(f"#way-back li[data-match='{match}'] .way-back-who")
    )
    expect_cut(way_back, "the way back")
    backs[1].shot("way-back-long-name")
    for back in backs:
        assert back.errors == [], back.errors

"""Players at the table, in real Chromium: two players and a spectator through a real relay, at
desktop and phone size. Names typed in the lobby and the start section reach the partner and
the spectator; a player who leaves is shown away with the time left to come back, and back
when they return; the chat goes both ways with markup kept as words; a draw is offered and
agreed, a takeback asked and accepted and another declined, a staller is claimed against, the
chat is hidden on a relay without one, and a relay restart on Redis is ridden out. axe-core
finds no serious or critical violation with the chat, an offer and a presence shown."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Dialog, Locator, expect

from tests.browser.axe import no_severe_violations
from tests.browser.conftest import WAIT_MS, MakePlayer
from tests.browser.faults import expect_reconnecting, forgive_failed_loads, kill
from tests.browser.keyboard import press, say, tab_to
from tests.browser.players import PHONE, Player, Viewport
from tests.browser.relay_api import events_of, match_status, moves_of
from tests.browser.seating import seated
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import RelayProcess, quick_flags

LAPTOP = Viewport(1280, 800)
"""A laptop's window, as the brief of these tests asks."""

SIZES = [pytest.param(LAPTOP, id="desktop"), pytest.param(PHONE, id="phone")]

MARKUP = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>"]
"""Chat lines that would run code if a page took them for markup."""

AWAY_WITHIN_MS = 8_000
"""How soon a closed tab shows away: the relay's 3 s, a second of its own, and a poll's wake."""


REDIS = ("redis",)
"""The relay parameter of a relay on a Redis store of its own, whose matches outlive a restart."""


@pytest.fixture
def relay(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """Returns a relay serving the pages, with the extra options the test names (indirect
    parametrization: a tuple of flags, or REDIS for a Redis store), or with none."""
    extra: tuple[str, ...] = getattr(request, "param", ())
    if extra == REDIS:
        with (
            RedisServer(redis_binary()) as redis,
            RelayProcess(*quick_flags(), "--store", redis.url) as process,
        ):
            yield process
        return
    with RelayProcess(*quick_flags(), *extra) as process:
        yield process


def dialogs_of(side: Player) -> list[str]:
    """Returns the list every dialog (alert, confirm) the page opens is added to, dismissed."""
    seen: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        seen.append(dialog.message)
        dialog.dismiss()

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
    return x, o, x.match_id()


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
    # Bob's own lines show once the relay has them (the next read of the table).
    expect(bob.page.locator("#chat .chat-lines li")).to_have_text(
        ["Ann: good luck", *(f"You: {line}" for line in MARKUP)]
    )
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


def ended_of(relay: RelayProcess, match: str) -> dict[str, object]:
    """Returns the match's `ended` event (the last of its log)."""
    last = events_of(relay, match)[-1]
    assert last["type"] == "ended", last
    return last


def offer_words(side: Player) -> Locator:
    """Returns the line that says where the last offer stands."""
    return side.page.locator("#offer-status")


@pytest.mark.parametrize("viewport", SIZES)
def test_a_draw_offered_by_keyboard_is_agreed_and_ends_the_match_drawn(
    player: MakePlayer, relay: RelayProcess, viewport: Viewport
) -> None:
    x, o, match = start_named_room(player("ann", viewport), player("bob", viewport))
    x.play_cell("11")
    expect(o.cell("11")).to_have_text("X")
    press(o, "Offer draw")
    expect(offer_words(o)).to_have_text("You offered a draw: waiting for your opponent...")
    expect(offer_words(x)).to_have_text("Your opponent offers a draw.")
    expect(o.page.get_by_role("button", name="Offer draw")).to_be_disabled()
    expect(x.page.get_by_role("button", name="Decline")).to_be_visible()
    no_severe_violations(x, "a draw offer shown")
    x.shot("draw-offered")
    x.page.emulate_media(color_scheme="dark")
    no_severe_violations(x, "a draw offer shown, in dark mode")
    x.shot("draw-offered-dark")
    press(x, "Accept")
    for side in (x, o):
        side.expect_state("GAME_ENDED")
        side.expect_status("The draw was agreed.")
        expect(side.page.get_by_role("button", name="Offer draw")).to_be_hidden()
        expect(side.page.get_by_role("button", name="Rematch")).to_be_visible()
    assert ended_of(relay, match)["reason"] == "drawn"
    o.shot("drawn")


@pytest.mark.parametrize("viewport", SIZES)
def test_a_takeback_is_accepted_and_another_declined_and_play_goes_on(
    player: MakePlayer, relay: RelayProcess, viewport: Viewport
) -> None:
    x, o, match = start_named_room(player("ann", viewport), player("bob", viewport))
    x.play_cell("11")
    expect(o.cell("11")).to_have_text("X")
    o.play_cell("00")
    expect(x.cell("00")).to_have_text("0")
    # 0 asks back its move on X's turn; X accepts by keyboard.
    press(o, "Ask to take back")
    expect(offer_words(x)).to_have_text("Your opponent asks to take back their last move.")
    expect(offer_words(o)).to_have_text(
        "You asked to take back your last move: waiting for your opponent..."
    )
    press(x, "Accept")
    for side in (x, o):
        expect(side.cell("00")).to_have_text("")
        expect(offer_words(side)).to_have_text("Move taken back.")
    o.expect_status("Your turn.")
    x.expect_status("Opponent's turn...")
    o.shot("taken-back")
    o.play_cell("22")
    expect(x.cell("22")).to_have_text("0")
    expect(offer_words(x)).to_be_hidden()  # the next move ends the word
    # X asks back its next move; 0 declines it.
    x.play_cell("02")
    expect(o.cell("02")).to_have_text("X")
    press(x, "Ask to take back")
    expect(offer_words(o)).to_have_text("Your opponent asks to take back their last move.")
    press(o, "Decline")
    expect(offer_words(x)).to_have_text("Your opponent declined to take back your move.")
    expect(offer_words(o)).to_have_text("You declined the takeback.")
    expect(x.page.get_by_role("button", name="Ask to take back")).to_be_disabled()
    expect(x.cell("02")).to_have_text("X")
    o.play_cell("20")
    expect(x.cell("20")).to_have_text("0")
    x.expect_status("Your turn.")
    assert [event["move"] for event in moves_of(relay, match)] == ["11", "00", "22", "02", "20"]
    undo = [event for event in events_of(relay, match) if event["type"] == "undo"]
    assert [(event["seq"], event["count"]) for event in undo] == [(4, 1)]
    # The replay steps back over the takeback.
    eve = player("eve", viewport)
    eve.open(f"/replay.html#match={match}")
    expect(eve.page.locator("#position")).to_contain_text("Move 6 of 6")
    for _ in range(3):
        eve.page.get_by_role("button", name="Back", exact=True).click()
    expect(eve.page.locator("#position")).to_have_text("Move 3 of 6: 0 took back a move.")
    expect(eve.cell("00")).to_have_text("")
    eve.page.get_by_role("button", name="Back", exact=True).click()
    expect(eve.cell("00")).to_have_text("0")
    eve.shot("replay-takeback")


@pytest.mark.parametrize("relay", [("--claim-after", "3")], indirect=True)
def test_a_staller_is_claimed_against_after_the_countdown(
    player: MakePlayer, relay: RelayProcess
) -> None:
    x, o, match = start_named_room(player("ann", LAPTOP), player("bob", LAPTOP))
    x.play_cell("11")
    expect(o.cell("11")).to_have_text("X")
    claim = x.page.get_by_role("button", name="Claim the win")
    expect(x.page.locator("#claim-status")).to_have_text(
        re.compile(r"^Your opponent has not moved for a while: you may claim the win in [1-3] s\.$")
    )
    expect(claim).to_be_hidden()
    expect(x.page.locator("#claim-status")).to_have_text(
        "Your opponent has not moved in time: you may claim the win.", timeout=6_000
    )
    no_severe_violations(x, "the claim offered")
    x.shot("claim")
    press(x, "Claim the win")
    x.expect_status("Your opponent stopped moving and you claimed the win.")
    o.expect_status("Your opponent claimed the win: you took too long to move.")
    assert ended_of(relay, match) | {"seq": 0} == {
        "seq": 0,
        "type": "ended",
        "reason": "stalled",
        "seat": 1 - int((x.saved_match() or {})["seat"]),
    }


AT_END = "list => list.scrollHeight - list.scrollTop - list.clientHeight <= 1"
"""Whether a chat list shows its newest line (scrolled to its end)."""


def expect_at_end(lines: Locator) -> None:
    """Waits until the chat list shows its newest line, WAIT_MS at most (polled from here:
    the pages' CSP refuses the evaluated strings of Playwright's wait_for_function)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not lines.evaluate(AT_END):
        assert time.monotonic() < deadline, "the chat list does not show its newest line"
        lines.page.wait_for_timeout(50)


def test_a_long_chat_follows_its_newest_line_unless_its_reader_scrolled_back(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    start_named_room(ann, bob)
    for n in range(13):
        say(ann, f"line {n}")
    for side in (ann, bob):
        lines = side.page.locator("#chat .chat-lines")
        expect(lines.locator("li")).to_have_count(13)
        # The list overflows its height, and shows its newest line, to sender and reader.
        assert lines.evaluate("list => list.scrollHeight > list.clientHeight")
        expect_at_end(lines)
    # A reader who scrolled back to read stays there as a line comes in...
    lines = bob.page.locator("#chat .chat-lines")
    lines.evaluate("list => { list.scrollTop = 0; }")
    say(ann, "one more")
    expect(lines.locator("li")).to_have_count(14)
    assert lines.evaluate("list => list.scrollTop") == 0
    # ...and is taken to the newest line by one of their own.
    say(bob, "back to it")
    expect(lines.locator("li")).to_have_count(15)
    expect_at_end(lines)
    bob.shot("chat-followed")


@pytest.mark.parametrize("relay", [("--chat", "off")], indirect=True)
def test_on_a_relay_without_chat_the_panel_says_so_and_hides(
    player: MakePlayer, relay: RelayProcess
) -> None:
    x, o, _ = start_named_room(player("ann", LAPTOP), player("bob", LAPTOP))
    say(x, "hello")
    note = x.page.locator("#chat .chat-note")
    expect(note).to_have_text("This relay carries no chat.")
    expect(x.page.get_by_label("Say something to your opponent")).to_be_hidden()
    expect(x.page.locator("#chat .chat-lines")).to_be_hidden()
    expect(o.page.locator("#chat .chat-lines li")).to_have_count(0)
    x.shot("no-chat")
    # Chromium reports the refused line (403 chat/off) on the console: that one is expected.
    x.errors[:] = [error for error in x.errors if "403 (Forbidden)" not in error]


@pytest.mark.parametrize("relay", [("--chat", "all")], indirect=True)
def test_spectators_read_the_chat_on_a_relay_that_shows_it_to_everyone(
    player: MakePlayer, relay: RelayProcess
) -> None:
    x, o, match = start_named_room(player("ann", PHONE), player("bob", PHONE))
    eve = player("eve", PHONE)
    eve.open(f"/replay.html#match={match}")
    expect(eve.page.locator("#players")).to_contain_text("Bob")
    say(x, "watch this")
    say(o, "<b>bold?</b>")
    lines = eve.page.locator("#chat .chat-lines li")
    named = {"ann": "Ann", "bob": "Bob"}
    expect(lines).to_have_text([f"{named[x.name]}: watch this", f"{named[o.name]}: <b>bold?</b>"])
    expect(eve.page.locator("#chat b")).to_have_count(0)
    no_severe_violations(eve, "a spectator with the chat")
    eve.shot("spectator-chat")


def test_the_lobby_lists_the_players_names(player: MakePlayer) -> None:
    ann, bob, looker = player("ann"), player("bob"), player("looker")
    name_in_lobby(ann, "Ann <b>")
    ann.page.locator("#game-xand0").get_by_role("button", name="Create a public game").click()
    ann.expect_state("LISTENING")
    looker.open("/")
    lobby = looker.page.locator("[data-lobby='xand0']")
    opened = lobby.locator(".open-list li[data-match]")
    expect(opened).to_have_count(1)
    expect(opened).to_contain_text(re.compile(r"^Ann <b> · Opened at "))
    name_in_lobby(bob, "Bob")
    bob.page.locator("#game-xand0 .open-list").get_by_role("link", name=re.compile("^Join")).click()
    live = lobby.locator(".live-list li[data-match]")
    expect(live).to_contain_text(re.compile(r"^Ann <b> vs Bob · Started "))
    expect(looker.page.locator("[data-lobby] b")).to_have_count(0)
    looker.shot("lobby-names")


@pytest.mark.parametrize("relay", [REDIS], indirect=True)
def test_a_relay_restart_on_redis_is_ridden_out_with_the_table(
    player: MakePlayer, relay: RelayProcess
) -> None:
    x, o, match = start_named_room(player("ann", LAPTOP), player("bob", LAPTOP))
    say(x, "before")
    expect(o.page.locator("#chat .chat-lines li")).to_have_count(1)
    x.play_cell("11")
    expect(o.cell("11")).to_have_text("X")
    x.expect_state("PLAYING_WAIT_MOVE")  # the relay holds the move post: it has the move
    kill(relay)
    for side in (x, o):
        expect_reconnecting(side)
    x.shot("reconnecting")
    relay.start()
    o.expect_status("Your turn.")
    x.expect_status("Opponent's turn...")
    # The table goes on: names, the chat, and offers.
    expect(x.page.locator("#opponent-name")).to_contain_text(re.compile("Bob|Ann"))
    say(o, "after")
    expect(x.page.locator("#chat .chat-lines li")).to_have_count(2)
    o.play_cell("00")
    expect(x.cell("00")).to_have_text("0")
    press(x, "Offer draw")
    expect(offer_words(o)).to_have_text("Your opponent offers a draw.")
    assert [event["move"] for event in moves_of(relay, match)] == ["11", "00"]
    forgive_failed_loads(x, o)


def test_the_computer_takes_moves_back_and_agrees_a_draw_it_is_not_winning(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann = player("ann", LAPTOP)
    ann.open("/xand0.html#computer&level=strong")
    ann.expect_state("PLAYING_TO_MOVE")  # first, or once the computer has moved
    marks = ann.page.locator("[data-cell]:not([data-mark=''])")
    before = marks.count()
    ann.page.locator("[data-cell][data-mark='']").first.click()
    expect(marks).to_have_count(before + 2)  # the computer replied
    ann.expect_state("PLAYING_TO_MOVE")
    press(ann, "Ask to take back")
    expect(offer_words(ann)).to_have_text("Moves taken back.")
    expect(marks).to_have_count(before)
    ann.expect_status("Your turn.")
    ann.shot("computer-took-back")
    # Perfect play draws from here: the computer, not winning, agrees.
    press(ann, "Offer draw")
    ann.expect_status("The draw was agreed.")
    expect(ann.page.locator("#chat")).to_be_hidden()  # no chat with the computer


def test_a_takeback_in_dots_and_boxes_steps_back_a_closed_box_and_its_pass(
    player: MakePlayer, relay: RelayProcess
) -> None:
    a, b = player("a", PHONE), player("b", PHONE)
    a.open("/dots.html#room=boxes")
    b.open("/dots.html#room=boxes")
    first, second = seated(a, b)

    def draw(side: Player, line: str) -> None:
        side.expect_state("PLAYING_TO_MOVE")
        side.page.locator(f'[data-line="{line}"]').click()
        for one in (first, second):
            expect(one.page.locator(f'[data-line="{line}"]')).to_have_class(re.compile("drawn"))

    for side, line in ((first, "h00"), (second, "h10"), (first, "v00"), (second, "v01")):
        draw(side, line)
    # The second closed the box: the first's page passed, and the second draws again.
    second.expect_status("Your turn.")
    box = ".dots-box[data-owner='O']"
    expect(first.page.locator(box)).to_have_count(1)
    press(second, "Ask to take back")  # its box, and the pass it forced
    expect(offer_words(first)).to_have_text(
        "Your opponent asks to take back their last move and your reply."
    )
    press(first, "Accept")
    for side in (first, second):
        expect(side.page.locator('[data-line="v01"]')).not_to_have_class(re.compile("drawn"))
        expect(side.page.locator(box)).to_have_count(0)
        expect(offer_words(side)).to_have_text("Moves taken back.")
    second.expect_status("Your turn.")
    first.expect_status("Opponent's turn...")
    second.shot("dots-taken-back")
    draw(second, "h30")
    first.expect_status("Your turn.")

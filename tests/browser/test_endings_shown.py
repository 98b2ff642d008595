"""How a match ended, shown in real Chromium through a real relay: the replay's heading and
"Your games" say who won, by side and name, and how; the game page shows how a rated match
moved the player's rating; and a move the relay never received (a memory-store relay
restarted under it) is taken off the board with plain words.

The module shares one relay (the memory store, rating every game's trusted results) and one
browser; the restart comes last, as it empties the relay."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.faults import (
    RECONNECTING,
    expect_reconnecting,
    forgive_failed_loads,
    kill_after_a_held_move,
)
from tests.browser.players import PHONE, Player
from tests.browser.relay_api import call
from tests.browser.seating import play_to_a_win, seated, start_room
from tests.support.relay_process import RelayProcess, quick_flags

FORGOTTEN_MOVE = "The relay restarted and lost this match; your last move was not received."
FORGOTTEN = "The relay restarted and no longer knows this match; it cannot go on."
SENDING = "Sending your move... (reconnecting to the relay)"


@pytest.fixture(scope="module")
def relay() -> Iterator[RelayProcess]:
    """Returns one relay for the module, on the memory store, rating every game's trusted
    results (--rate-unrefereed), as the rated match needs."""
    with RelayProcess(*quick_flags(), "--rate-unrefereed") as process:
        yield process


def named(player: Player, name: str) -> Player:
    """Types the player's name in the lobby, which keeps it for the game pages' seeks."""
    player.open("/")
    player.page.locator("#player-name").fill(name)
    return player


def your_games_row(side: Player, match: str) -> str:
    """Opens the lobby until "Your games" lists the finished match; returns its row's words
    (the relay lists it as it ends: a few reads at most)."""
    deadline = time.monotonic() + 10
    while True:
        side.open("/")
        mine = side.page.locator("#your-games")
        expect(mine).to_have_attribute("data-state", "listed")
        row = mine.locator(f".mine-list li[data-match='{match}']")
        words = row.text_content() if row.count() > 0 else ""
        if words is not None and "Finished" in words:
            return words
        assert time.monotonic() < deadline, f"Your games never listed {match} finished"
        side.page.wait_for_timeout(300)


def test_a_rated_win_is_told_with_who_won_how_and_the_rating_change(
    player: MakePlayer, relay: RelayProcess
) -> None:
    a, b = named(player("ann"), "Ann"), named(player("bob", PHONE), "Bob")
    a.open("/xand0.html#play&rated=1")
    a.expect_state("LISTENING")
    b.open("/xand0.html#play&rated=1")
    x, o = seated(a, b)
    play_to_a_win(x, o)
    winner, loser = ("Ann", "Bob") if x is a else ("Bob", "Ann")

    # The game page: the rating change, once the relay has rated the match (two new keys:
    # the winner goes from 1500 to 1741.6, the loser to 1258.4, shown in whole points).
    started = time.monotonic()
    change = x.page.locator("#rating-change")
    expect(change).to_have_text("Your rating: 1500 → 1741 (+241)")
    expect(o.page.locator("#rating-change")).to_have_text("Your rating: 1500 → 1258 (−242)")
    expect(change).to_have_attribute("role", "status")
    shown_after = time.monotonic() - started
    x.shot("rating-change")
    o.shot("rating-change")
    match = x.match_id()

    # The replay: who won, by side and name, and how (an agreed end: the winner's claim).
    x.open(f"/replay.html#match={match}")
    x.expect_status(f"X ({winner}) won: three in a row, and 0 ({loser}) agreed.")
    x.shot("replay-who-won")

    # Your games: the same words, the reader's own seat as "you", with the rating's change (and
    # a button to challenge the opponent, who played with a player key).
    assert your_games_row(x, match) == (
        f"X and 0: Finished · X (you) won: three in a row, and 0 ({loser}) agreed"
        " · Rating 1500 → 1741 (+241) Replay Challenge"
    )
    assert your_games_row(o, match) == (
        f"X and 0: Finished · X ({winner}) won: three in a row, and 0 (you) agreed"
        " · Rating 1500 → 1258 (−242) Replay Challenge"
    )
    o.shot("your-games-who-won")
    print(f"rating change shown {shown_after:.2f} s after both pages said the result")


def test_a_resignation_and_a_draw_are_told_in_the_replay_and_your_games(
    player: MakePlayer, relay: RelayProcess
) -> None:
    # The browser's player key plays through the relay's API: Cat against Dan, who resigns;
    # then a draw agreed by offer. Neither is a game the pages played: the words come from
    # the relay's result alone.
    cat = named(player("cat"), "Cat")
    cat.open("/xand0.html#play&rated=1")  # draws and keeps this browser's player key
    cat.expect_state("LISTENING")
    cat.page.get_by_role("button", name="Cancel").click()
    cat.expect_state("IDLE")
    key = str(cat.page.evaluate("localStorage.getItem('movewire.player')"))
    matches = []
    for room, ending in (("resigned-room", "resign"), ("drawn-room", "draw")):
        seek = {"game": "xand0", "version": "1", "room": room}
        mine = call(relay, "/v1/seek", {**seek, "player": key, "name": "Cat"})
        theirs = call(relay, "/v1/seek", {**seek, "name": "Dan"})
        call(relay, f"/v1/matches/{mine['match']}/events?after=0&wait=0", token=mine["token"])
        if ending == "resign":
            call(relay, f"/v1/matches/{mine['match']}/resign", {}, theirs["token"])
        else:
            offer = {"kind": "draw", "after": 1}
            call(relay, f"/v1/matches/{mine['match']}/offer", offer, mine["token"])
            answer = {"accept": True, "after": 1}
            call(relay, f"/v1/matches/{mine['match']}/answer", answer, theirs["token"])
        first = call(relay, f"/v1/matches/{mine['match']}")["first"]
        matches.append((mine["match"], first == mine["seat"]))
    (resigned, cat_first), (drawn, _) = matches
    cat_side, dan_side = ("X", "0") if cat_first else ("0", "X")
    assert your_games_row(cat, resigned) == (
        f"X and 0: Finished · {cat_side} (you) won: {dan_side} (Dan) resigned Replay"
    )
    assert your_games_row(cat, drawn) == "X and 0: Finished · A draw: the players agreed it Replay"
    cat.open(f"/replay.html#match={resigned}")
    cat.expect_status(f"{cat_side} (Cat) won: {dan_side} (Dan) resigned.")
    cat.open(f"/replay.html#match={drawn}")
    cat.page.reload()  # a new fragment alone does not load the page again
    cat.expect_status("A draw: the players agreed it.")


def test_a_move_the_relay_never_received_is_taken_off_the_board(
    player: MakePlayer, relay: RelayProcess
) -> None:
    x, o, _ = start_room(player("eve"), player("fay"))
    kill_after_a_held_move(relay, x, o)
    for side in (x, o):
        expect_reconnecting(side)
    o.play_cell("00")  # while the relay is away: drawn, and being sent
    expect(o.cell("00")).to_have_text("0")
    expect(o.page.locator("#last-move")).to_have_text("You played 0 at row 1, column 1.")
    expect_reconnecting(o, SENDING)
    x.expect_status(RECONNECTING)
    relay.start()  # on the memory store: the match is gone, and O's move with it
    o.expect_status(FORGOTTEN_MOVE)
    expect(o.cell("00")).to_have_text("")
    expect(o.page.locator("#last-move")).to_have_text(
        re.compile(r"^Opponent played X at row 2, column 2\.$")
    )
    expect(o.page.get_by_role("link", name="Back to the lobby")).to_be_visible()
    # X's move reached the relay before it went: it stays, and X is told the match is gone.
    x.expect_status(FORGOTTEN)
    expect(x.cell("11")).to_have_text("X")
    o.shot("move-not-received")
    forgive_failed_loads(x, o)

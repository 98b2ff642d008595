"""A refereed game of X and 0 in real Chromium (`--referee xand0`): each game page says who won
and how in the referee's words at the end, after a reload too, and the replay says the same."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import Player
from tests.browser.seating import seated
from tests.support.relay_process import RelayProcess, quick_flags

CONFIRM_REFUSED = "Failed to load resource: the server responded with a status of 409 (Conflict)"
"""What Chromium would log if the loser's host confirmed an end the referee recorded already
(409 match/finished): the host reads the end queued with the move instead, and sends none."""

WIN = ["00", "10", "11", "20", "22"]
"""X takes the diagonal while O answers on the top row."""

DRAW = ["11", "00", "22", "02", "01", "21", "20", "10", "12"]
"""Nine moves and no line of three."""


@pytest.fixture
def relay() -> Iterator[RelayProcess]:
    """Returns a fresh relay serving the pages that referees X and 0."""
    with RelayProcess(*quick_flags(), "--referee", "xand0") as process:
        yield process


def play(player: MakePlayer, moves: list[str]) -> tuple[Player, Player]:
    """Seats two players at X and 0 and plays the moves by clicks, the first mover first;
    returns (the first mover, the other)."""
    a, b = player("a"), player("b")
    a.open("/xand0.html#play")
    a.expect_state("LISTENING")
    b.open("/xand0.html#play")
    x, o = seated(a, b)
    for i, move in enumerate(moves):
        mover, other = (x, o) if i % 2 == 0 else (o, x)
        mover.play_cell(move)
        expect(other.cell(move)).to_have_text("X0"[i % 2])
    return x, o


def no_refused_confirm(*sides: Player) -> None:
    """Checks that neither page's console shows a confirm refused as finished."""
    for side in sides:
        assert not [error for error in side.errors if CONFIRM_REFUSED in error]


def test_a_refereed_win_is_told_on_both_pages_and_the_replay_in_its_words(
    player: MakePlayer,
) -> None:
    x, o = play(player, WIN)
    x.expect_status("You win: three in a row.")
    o.expect_status("You lose: three in a row.")
    match = x.match_id()
    o.page.reload()  # a finished match the tab keeps shows the same end
    o.expect_status("You lose: three in a row.")
    viewer = player("viewer")
    viewer.open(f"/replay.html#match={match}")
    expect(viewer.status).to_have_text("X won by the rules: three in a row.")
    no_refused_confirm(x, o)


def test_a_refereed_draw_is_told_on_both_pages_in_its_words(player: MakePlayer) -> None:
    x, o = play(player, DRAW)
    for side in (x, o):
        side.expect_status("A draw: the board is full.")
    viewer = player("viewer")
    viewer.open(f"/replay.html#match={x.match_id()}")
    expect(viewer.status).to_have_text("A draw by the rules: the board is full.")
    no_refused_confirm(x, o)

"""The example games' referees: each replays a match's plays on its game's rules (legal so far,
the first illegal play, or where and how the game ended), seats mapped to players by who
played first."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from examples.board.referee import BoardReferee
from examples.board.rules import FIRST
from examples.connect4.referee import Connect4Referee
from examples.connect4.rules import Board as Connect4Board
from examples.connect4.rules import format_move as connect4_move
from examples.connect4.rules import parse_move as connect4_parse
from examples.dots.referee import DotsReferee
from examples.dots.rules import Board as DotsBoard
from examples.dots.rules import format_move as dots_move
from examples.xand0.referee import Xand0Referee
from examples.xand0.rules import Board as Xand0Board
from examples.xand0.rules import format_move as xand0_move
from sdk.referee import Illegal, Legal, Over, Play

GAMES: list[tuple[Callable[[], Any], Any, Callable[[Any], str]]] = [
    (Connect4Referee, Connect4Board(), connect4_move),
    (Xand0Referee, Xand0Board(), xand0_move),
    (DotsReferee, DotsBoard.empty(), dots_move),
]


def plays(first: int, *moves: str | None) -> list[Play]:
    """Returns moves (None: a pass) as plays from event 2, seats taking turns from first."""
    return [Play(2 + i, (first + i) % 2, move) for i, move in enumerate(moves)]


def random_game(
    board: Any, fmt: Callable[[Any], str], first: int, seed: int
) -> tuple[list[Play], int | None]:
    """Returns a random legal game to its end as the relay logs it (the relay gives the turn
    to the other seat after every move, so a player who keeps the turn is passed it back),
    and the winning seat (None for a draw)."""
    rng = random.Random(seed)
    found: list[Play] = []
    seat = first
    while not board.is_game_over():
        player = FIRST if seat == first else 1 - FIRST
        if board.turn != player:
            found.append(Play(2 + len(found), seat, None))
        else:
            move = rng.choice(board.legal_moves())
            board = board.push(move)
            found.append(Play(2 + len(found), seat, fmt(move), board.is_game_over()))
        seat = 1 - seat
    winner = board.outcome().winner
    return found, None if winner is None else first if winner == FIRST else 1 - first


@pytest.mark.parametrize(("make", "empty", "fmt"), GAMES)
@settings(deadline=None, max_examples=50)
@given(seed=st.integers(0, 2**32), first=st.sampled_from([0, 1]))
def test_random_legal_games_end_over_with_the_rules_winner(
    make: Callable[[], Any], empty: Any, fmt: Callable[[Any], str], seed: int, first: int
) -> None:
    game, winner = random_game(empty, fmt, first, seed)
    referee = make()
    for cut in range(1, len(game)):
        assert referee.judge(game[:cut]) == Legal()
    verdict = referee.judge(game)
    assert isinstance(verdict, Over)
    assert (verdict.seq, verdict.winner) == (game[-1].seq, winner)


def test_connect4_win_maps_players_to_seats() -> None:
    referee = Connect4Referee()
    # Seat 1 moved first: it is the first player, and its four in column 0 wins.
    assert referee.judge(plays(1, "0", "1", "0", "1", "0", "1", "0")) == Over(8, 1, "four in a row")
    assert referee.judge(plays(0, "0", "1", "0", "1", "0", "1", "2", "1")) == Over(
        9, 1, "four in a row"
    )


def test_connect4_illegal_plays() -> None:
    referee = Connect4Referee()
    full = ["0"] * 6
    assert referee.judge(plays(0, *full, "0")) == Illegal(8, 0, "column 0 is full")
    assert referee.judge(plays(0, "7")) == Illegal(2, 0, "move '7' is not one column digit 0..6")
    bad = referee.judge(plays(0, "3", "x"))
    assert isinstance(bad, Illegal) and (bad.seq, bad.seat) == (3, 1)
    assert referee.judge(plays(0, "3", None)) == Illegal(3, 1, "passed with a legal move to play")
    twice = [Play(2, 0, "3"), Play(3, 0, "4")]
    assert referee.judge(twice) == Illegal(3, 0, "it was the other player's turn")


def test_connect4_play_after_the_end_is_judged_at_the_end() -> None:
    # The relay makes the play after an Over illegal; the referee says where the game ended.
    won = plays(0, "0", "1", "0", "1", "0", "1", "0", "5")
    assert Connect4Referee().judge(won) == Over(8, 0, "four in a row")


def test_xand0_win_draw_and_occupied_cell() -> None:
    referee = Xand0Referee()
    assert referee.judge(plays(0, "00", "10", "11", "20", "22")) == Over(6, 0, "three in a row")
    drawn = plays(1, "00", "11", "22", "01", "21", "20", "02", "12", "10")
    assert referee.judge(drawn) == Over(10, None, "a draw: the board is full")
    assert referee.judge(plays(0, "00", "00")) == Illegal(3, 1, "cell '00' is already occupied")
    assert referee.judge(plays(0, "00", "10")) == Legal()


def test_dots_box_closed_keeps_the_turn() -> None:
    referee = DotsReferee()
    # Seat 0 draws three sides of box (0, 0) over the game, seat 1 draws elsewhere.
    opening = ["h00", "h30", "v00", "h31", "h10"]
    assert referee.judge(plays(0, *opening)) == Legal()
    closed = [*opening, "h32", "v01"]  # seat 0's v01 closes box (0, 0): it moves again
    assert referee.judge(plays(0, *closed)) == Legal()
    assert referee.judge(plays(0, *closed, None, "v03")) == Legal()  # seat 1 passes it back
    assert referee.judge(plays(0, *closed, "v03")) == Illegal(
        9, 1, "it was the other player's turn"
    )
    assert referee.judge(plays(0, *opening, "h00")) == Illegal(7, 1, "line 'h00' is drawn already")
    assert referee.judge(plays(0, "h00", None)) == Illegal(3, 1, "passed with a legal move to play")


def test_empty_match_is_legal() -> None:
    for make, _, _ in GAMES:
        assert make().judge([]) == Legal()


@settings(deadline=None, max_examples=300)
@given(
    texts=st.lists(st.sampled_from([*"0123456" * 8, "7", "", "33", None]), max_size=50),
    first=st.sampled_from([0, 1]),
)
def test_connect4_referee_agrees_with_the_rules_position(
    texts: list[str | None], first: int
) -> None:
    # The fast referee (bitboards, fours looked for by halving) against a replay of the
    # rules' own Board, on any plays the relay could log (seats taking turns).
    slow = BoardReferee(Connect4Board, connect4_parse, lambda board: "four in a row")
    found = plays(first, *texts)
    assert Connect4Referee().judge(found) == slow.judge(found)


def test_connect4_draw_on_a_full_board() -> None:
    drawn = "330254564223355224331121550404466660106011"
    assert Connect4Referee().judge(plays(1, *drawn)) == Over(43, None, "a draw: the board is full")
    assert Connect4Referee().judge(plays(1, *drawn, "3")) == Over(
        43, None, "a draw: the board is full"
    )


@pytest.mark.parametrize("error", [ValueError, KeyError, RuntimeError])
def test_any_error_of_the_rules_on_a_play_makes_it_illegal_with_its_words(
    error: type[Exception],
) -> None:
    def parse(text: str) -> Any:
        raise error(f"no such square: {text!r}")

    referee = BoardReferee(Xand0Board, parse, lambda board: "three in a row")
    verdict = referee.judge(plays(0, "44"))
    assert isinstance(verdict, Illegal) and (verdict.seq, verdict.seat) == (2, 0)
    assert "no such square: '44'" in verdict.reason

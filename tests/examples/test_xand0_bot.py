"""Tests of the X and 0 bots: perfect play never loses, weaker levels do what they promise."""

from __future__ import annotations

import random

import pytest

from examples.board.rules import FIRST, SECOND, IllegalMoveError
from examples.xand0.bot import MAX_LEVEL, best_move, choose_move, move_scores
from examples.xand0.rules import Board, Move


def _worst_result(board: Board, bot: int) -> int:
    """Returns the bot's worst result (1 win, 0 draw, -1 loss) over all opponent replies."""
    outcome = board.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == bot else -1)
    if board.turn == bot:
        return _worst_result(board.push(best_move(board)), bot)
    return min(_worst_result(board.push(m), bot) for m in board.legal_moves())


@pytest.mark.timeout(30)
@pytest.mark.parametrize("bot", [FIRST, SECOND], ids=["bot-first", "bot-second"])
def test_perfect_bot_never_loses_against_any_sequence_of_moves(bot: int) -> None:
    assert _worst_result(Board.empty(), bot) >= 0


@pytest.mark.timeout(10)
def test_perfect_bot_against_itself_draws() -> None:
    board = Board.empty()
    while not board.is_game_over():
        board = board.push(best_move(board))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is None


@pytest.mark.timeout(10)
def test_top_level_against_itself_draws_whatever_the_ties() -> None:
    rng = random.Random(7)
    for _ in range(20):
        board = Board.empty()
        while not board.is_game_over():
            board = board.push(choose_move(board, MAX_LEVEL, rng))
        outcome = board.outcome()
        assert outcome is not None and outcome.winner is None


def test_empty_board_is_a_draw_with_perfect_play() -> None:
    assert set(move_scores(Board.empty()).values()) == {0}


def test_perfect_bot_takes_the_quickest_win() -> None:
    # X to move can win at once on the top row (20) or set up other wins; it must win now.
    board = Board.from_text("XX./OO./...")
    assert best_move(board) == Move(2, 0)


def test_perfect_bot_blocks_an_immediate_threat() -> None:
    board = Board.from_text("X../OO./X..")
    assert best_move(board) == Move(2, 1)


@pytest.mark.parametrize("level", [2, 3])
def test_levels_two_and_up_take_a_win_in_one(level: int) -> None:
    board = Board.from_text("XX./OO./...")
    assert choose_move(board, level, random.Random(1)) == Move(2, 0)


def test_level_two_blocks_a_win_in_one() -> None:
    board = Board.from_text("X../OO./X..")
    for seed in range(10):
        assert choose_move(board, 2, random.Random(seed)) == Move(2, 1)


def test_level_one_plays_only_legal_moves_and_varies() -> None:
    board = Board.from_moves(["11"])
    picks = {choose_move(board, 1, random.Random(seed)) for seed in range(40)}
    assert picks <= set(board.legal_moves())
    assert len(picks) > 3


@pytest.mark.parametrize("level", [0, 4])
def test_unknown_levels_are_rejected(level: int) -> None:
    with pytest.raises(ValueError, match=repr(level)):
        choose_move(Board.empty(), level, random.Random(0))


def test_asking_for_a_move_in_a_finished_game_raises() -> None:
    board = Board.from_moves(["00", "01", "10", "11", "20"])
    with pytest.raises(IllegalMoveError):
        best_move(board)

"""Tests of the X and 0 rules: wins, draws, illegal moves, move strings and rendering."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from examples.board.rules import FIRST, SECOND, IllegalMoveError, Outcome, Termination
from examples.xand0.rules import LINES, Board, Move, format_move, parse_move, render

ANSI = re.compile(r"\x1b\[")
ALL_CELLS = [Move(c, r) for r in range(3) for c in range(3)]


def _spare_cells(line: tuple[Move, ...], count: int) -> list[Move]:
    """Returns ``count`` cells off the line that hold no line of their own."""
    off_line = [m for m in ALL_CELLS if m not in line]
    for cells in itertools.combinations(off_line, count):
        if not any(set(other) <= set(cells) for other in LINES):
            return list(cells)
    raise AssertionError(f"no {count} spare cells for {line!r}")


def _play_line(line: tuple[Move, ...], winner: int) -> Board:
    """Returns the board after ``winner`` fills the line while the loser plays elsewhere."""
    spare = _spare_cells(line, 3 if winner == SECOND else 2)
    order = list(line)
    moves = [x for pair in itertools.zip_longest(order, spare) for x in pair if x is not None]
    if winner == SECOND:
        moves = [x for pair in itertools.zip_longest(spare, order) for x in pair if x is not None]
    board = Board.empty()
    for move in moves:
        board = board.push(move)
        if board.is_game_over():
            break
    return board


def test_there_are_eight_distinct_lines_of_three() -> None:
    assert len(LINES) == 8
    assert len({frozenset(line) for line in LINES}) == 8
    assert all(len(set(line)) == 3 for line in LINES)


@pytest.mark.parametrize("winner", [FIRST, SECOND], ids=["first", "second"])
@pytest.mark.parametrize("line", LINES, ids=lambda line: "-".join(map(format_move, line)))
def test_completing_each_line_wins_for_its_player(line: tuple[Move, ...], winner: int) -> None:
    board = _play_line(line, winner)
    assert board.outcome() == Outcome(winner, Termination.WIN, line)
    assert board.is_game_over()
    assert board.legal_moves() == []


def test_full_board_without_a_line_is_a_draw() -> None:
    board = Board.from_moves(["11", "00", "20", "02", "01", "21", "12", "10", "22"])
    assert board.outcome() == Outcome(None, Termination.DRAW)
    assert board.is_game_over()
    assert board.legal_moves() == []


def test_game_in_progress_has_no_outcome() -> None:
    board = Board.from_moves(["11", "00"])
    assert board.outcome() is None
    assert not board.is_game_over()
    assert len(board.legal_moves()) == 7


def test_first_player_moves_first_and_turns_alternate() -> None:
    board = Board.empty()
    assert board.turn == FIRST
    board = board.push(Move(1, 1))
    assert board.turn == SECOND
    assert board.piece_at(Move(1, 1)) == FIRST
    assert board.push(Move(0, 0)).turn == FIRST


def test_push_returns_a_new_board_and_leaves_the_old_one_unchanged() -> None:
    board = Board.empty()
    after = board.push(Move(2, 1))
    assert board == Board.empty()
    assert after.piece_at(Move(2, 1)) == FIRST


def test_playing_an_occupied_cell_is_illegal() -> None:
    board = Board.from_moves(["21"])
    with pytest.raises(IllegalMoveError, match="'21'"):
        board.push(Move(2, 1))


def test_playing_off_the_board_is_illegal() -> None:
    with pytest.raises(IllegalMoveError, match="'33'"):
        Board.empty().push(Move(3, 3))


def test_playing_after_the_game_is_over_is_illegal() -> None:
    board = _play_line(LINES[0], FIRST)
    assert board.is_game_over()
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.push(Move(2, 2))


@pytest.mark.parametrize(
    ("text", "move"), [("00", Move(0, 0)), ("21", Move(2, 1)), ("12", Move(1, 2))]
)
def test_move_strings_are_column_then_row(text: str, move: Move) -> None:
    assert parse_move(text) == move
    assert format_move(move) == text


@pytest.mark.parametrize("text", ["9", "x", "", "33", "0", " 11", "11 ", "1-1", "a1", "012"])
def test_malformed_move_strings_are_rejected_quoting_the_input(text: str) -> None:
    with pytest.raises(IllegalMoveError) as raised:
        parse_move(text)
    assert repr(text) in str(raised.value)


def test_illegal_move_error_is_a_value_error() -> None:
    assert issubclass(IllegalMoveError, ValueError)


@given(st.lists(st.integers(0, 8), max_size=12))
def test_repr_pastes_back_to_an_equal_board(picks: list[int]) -> None:
    board = Board.empty()
    for pick in picks:
        legal = board.legal_moves()
        if not legal:
            break
        board = board.push(legal[pick % len(legal)])
    assert eval(repr(board)) == board


def test_from_text_rejects_impossible_mark_counts() -> None:
    with pytest.raises(ValueError, match="impossible"):
        Board.from_text("XX./.../...")


def test_render_shows_column_and_row_numbers_and_brackets_the_last_move() -> None:
    board = Board.from_moves(["11", "02"])
    text = render(board, last=Move(0, 2))
    lines = text.splitlines()
    assert lines[0].split() == ["0", "1", "2"]
    assert [line.split()[0] for line in lines[1:]] == ["0", "1", "2"]
    assert "[O]" in lines[3]
    assert "X" in lines[2] and "[X]" not in text


def test_render_without_colour_has_no_ansi_codes_and_with_colour_has_them() -> None:
    board = Board.from_moves(["11", "02"])
    assert not ANSI.search(render(board, last=Move(0, 2)))
    assert not ANSI.search(str(board))
    assert ANSI.search(render(board, last=Move(0, 2), color=True))

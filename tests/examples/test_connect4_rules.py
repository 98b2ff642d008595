"""Tests of the Connect Four rules: all 69 lines, draws, illegal moves, move strings, rendering."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from examples.board.rules import FIRST, SECOND, IllegalMoveError, Outcome, Termination
from examples.connect4.rules import (
    BOARD_MASK,
    HEIGHT,
    WIDTH,
    WIN_LINES,
    WIN_MASKS,
    Board,
    Cell,
    cell_bit,
    format_move,
    has_four,
    parse_move,
    render,
    winning_cells,
)

ANSI = re.compile(r"\x1b\[")


def _owner(col: int, row: int) -> int:
    """Returns the owner of a cell in a full board with no four: columns paired, rows alternate."""
    return (col // 2 + row) % 2


def _drawn_game() -> Board:
    """Returns a full board with no four, reached by legal moves (found depth first)."""

    def extend(board: Board) -> Board | None:
        if board.mask == BOARD_MASK:
            return board
        for col in range(WIDTH):
            row = board.height(col)
            if row < HEIGHT and _owner(col, row) == board.turn:
                found = extend(board.push(col))
                if found is not None:
                    return found
        return None

    board = extend(Board.empty())
    assert board is not None
    return board


def _play_line(line: tuple[Cell, ...], winner: int, rng: random.Random) -> Board:
    """Returns a game in which ``winner`` wins by completing exactly ``line``.

    The winner plays a cell of the line whenever one is playable; otherwise both players play
    random moves off the line that make no four. Dead ends are retried from scratch.
    """
    line_mask = sum(cell_bit(c, r) for c, r in line)
    for _ in range(200):
        board = Board.empty()
        while board.outcome() is None:
            options: list[tuple[int, Board]] = []
            for col in board.legal_moves():
                after = board.push(col)
                in_line = bool((after.mask ^ board.mask) & line_mask)
                if board.turn == winner and in_line:
                    options.append((0, after))
                elif not in_line and not has_four(after.bits[board.turn]):
                    options.append((1, after))
            if not options:
                break
            best = min(rank for rank, _ in options)
            board = rng.choice([after for rank, after in options if rank == best])
        if board.outcome() == Outcome(winner, Termination.WIN, line):
            return board
    raise AssertionError(f"could not build a win on {line!r}")


def test_there_are_69_distinct_lines_24_horizontal_21_vertical_24_diagonal() -> None:
    assert len(WIN_LINES) == 69
    assert len(set(WIN_MASKS)) == 69
    horizontal = [line for line in WIN_LINES if len({r for _, r in line}) == 1]
    vertical = [line for line in WIN_LINES if len({c for c, _ in line}) == 1]
    assert (len(horizontal), len(vertical), 69 - len(horizontal) - len(vertical)) == (24, 21, 24)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("winner", [FIRST, SECOND], ids=["first", "second"])
@pytest.mark.parametrize("line", WIN_LINES, ids=lambda line: "".join(f"{c}{r}" for c, r in line))
def test_completing_each_line_wins_for_its_player(line: tuple[Cell, ...], winner: int) -> None:
    board = _play_line(line, winner, random.Random(f"{line}{winner}"))
    assert board.is_game_over()
    assert board.legal_moves() == []
    assert all(board.piece_at(c, r) == winner for c, r in line)


def test_full_board_without_four_is_a_draw() -> None:
    board = _drawn_game()
    assert board.outcome() == Outcome(None, Termination.DRAW)
    assert board.is_game_over()
    assert board.legal_moves() == []


def test_every_column_fills_after_six_pieces() -> None:
    board = Board.from_moves("0000")
    assert board.height(0) == 4
    board = board.push(0).push(0)
    assert board.height(0) == HEIGHT
    assert 0 not in board.legal_moves()
    with pytest.raises(IllegalMoveError, match="column 0 is full"):
        board.push(0)


def test_pieces_drop_to_the_lowest_free_cell() -> None:
    board = Board.from_moves("334")
    assert board.piece_at(3, 0) == FIRST
    assert board.piece_at(3, 1) == SECOND
    assert board.piece_at(4, 0) == FIRST
    assert board.piece_at(4, 1) is None
    assert board.turn == SECOND


def test_playing_after_the_game_is_over_is_illegal() -> None:
    board = Board.from_moves("3344556")
    assert board.outcome() == Outcome(FIRST, Termination.WIN, ((3, 0), (4, 0), (5, 0), (6, 0)))
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.push(0)


@pytest.mark.parametrize("move", [-1, 7])
def test_playing_off_the_board_is_illegal(move: int) -> None:
    with pytest.raises(IllegalMoveError, match=repr(move)):
        Board.empty().push(move)


@pytest.mark.parametrize("text", [str(c) for c in range(WIDTH)])
def test_move_strings_are_one_column_digit(text: str) -> None:
    assert parse_move(text) == int(text)
    assert format_move(parse_move(text)) == text


@pytest.mark.parametrize("text", ["9", "7", "x", "", "07", "33", " 3", "3 ", "-1", "³"])
def test_malformed_move_strings_are_rejected_quoting_the_input(text: str) -> None:
    with pytest.raises(IllegalMoveError) as raised:
        parse_move(text)
    assert repr(text) in str(raised.value)


@given(st.lists(st.integers(0, WIDTH - 1), max_size=42))
def test_repr_pastes_back_to_an_equal_board(picks: list[int]) -> None:
    board = Board.empty()
    for pick in picks:
        legal = board.legal_moves()
        if not legal:
            break
        board = board.push(legal[pick % len(legal)])
    assert eval(repr(board)) == board


@given(st.lists(st.integers(0, WIDTH - 1), max_size=42))
def test_winning_cells_are_the_empty_cells_that_complete_a_line(picks: list[int]) -> None:
    board = Board.empty()
    for pick in picks:
        legal = board.legal_moves()
        if not legal:
            break
        board = board.push(legal[pick % len(legal)])
    for player in (FIRST, SECOND):
        expected = 0
        for line_mask in WIN_MASKS:
            missing = line_mask & ~board.bits[player]
            if missing.bit_count() == 1 and not missing & board.mask:
                expected |= missing
        assert winning_cells(board.bits[player], board.mask) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("......./......./......./......./X....../.......", "floats"),
        ("......./......./......./......./......./XX.....", "counts"),
        ("......./......./......./......./OOOO.../XXXX...", "both"),
        ("......./......./......./......./......./X", "rows of"),
    ],
)
def test_from_text_rejects_unreachable_boards(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        Board.from_text(text)


def test_render_shows_column_numbers_and_brackets_the_last_move() -> None:
    board = Board.from_moves("3342")
    text = render(board, last=2)
    lines = text.splitlines()
    assert lines[-1].split() == [str(c) for c in range(WIDTH)]
    assert len(lines) == HEIGHT + 1
    assert "[O]" in lines[-2]
    assert text.count("[") == 1
    assert lines[-3].split().count("O") == 1


def test_render_without_colour_has_no_ansi_codes_and_with_colour_has_them() -> None:
    board = Board.from_moves("3342")
    assert not ANSI.search(render(board, last=2))
    assert not ANSI.search(str(board))
    assert ANSI.search(render(board, last=2, color=True))

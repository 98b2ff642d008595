"""The example games fit the board kit's protocols: mypy checks the assignments below, and the
tests check at run time that each game's position has every member the protocols name."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from examples import board
from examples.board import (
    Engine,
    Judge,
    MoveFormatter,
    MoveParser,
    Position,
    Render,
    StartingPosition,
    TimedEngine,
)
from examples.connect4 import bot as connect4_bot
from examples.connect4 import rules as connect4
from examples.dots import bot as dots_bot
from examples.dots import rules as dots
from examples.xand0 import bot as xand0_bot
from examples.xand0 import rules as xand0

from .kit_members import members

# Checked by mypy --strict: each game's position, move strings, engines and drawing fit.
XAND0_START: StartingPosition[xand0.Move] = xand0.Board.empty()
XAND0_PARSE: MoveParser[xand0.Move] = xand0.parse_move
XAND0_FORMAT: MoveFormatter[xand0.Move] = xand0.format_move
XAND0_ENGINE: Engine[xand0.Board, xand0.Move] = xand0_bot.choose_move
XAND0_JUDGE: Judge[xand0.Board] = xand0_bot.judge
XAND0_RENDER: Render = xand0.render

CONNECT4_START: StartingPosition[connect4.Move] = connect4.Board.empty()
CONNECT4_PARSE: MoveParser[connect4.Move] = connect4.parse_move
CONNECT4_FORMAT: MoveFormatter[connect4.Move] = connect4.format_move
CONNECT4_ENGINE: Engine[connect4.Board, connect4.Move] = connect4_bot.choose_move
CONNECT4_TIMED: TimedEngine[connect4.Board, connect4.Move] = connect4_bot.choose_move
CONNECT4_JUDGE: Judge[connect4.Board] = connect4_bot.judge
CONNECT4_RENDER: Render = connect4.render

DOTS_START: StartingPosition[dots.Line] = dots.Board.empty()
DOTS_PARSE: MoveParser[dots.Line] = dots.parse_move
DOTS_FORMAT: MoveFormatter[dots.Line] = dots.format_move
DOTS_ENGINE: Engine[dots.Board, dots.Line] = dots_bot.choose_move
DOTS_JUDGE: Judge[dots.Board] = dots_bot.judge
DOTS_RENDER: Render = dots.render

STARTS: dict[str, Any] = {"xand0": XAND0_START, "connect4": CONNECT4_START, "dots": DOTS_START}


def test_the_position_protocol_names_what_the_kit_uses() -> None:
    expected = {"turn", "ply", "push", "legal_moves", "outcome", "is_game_over"}
    assert members(Position) == expected
    assert members(StartingPosition) == expected | {"empty"}


@pytest.mark.parametrize("game", sorted(STARTS))
def test_each_game_position_has_every_member(game: str) -> None:
    start = STARTS[game]
    for name in members(StartingPosition):
        assert hasattr(start, name), f"{game}'s Board has no {name!r}"
    assert type(start).empty().ply == 0
    assert isinstance(start.turn, int) and start.ply == 0
    assert start.outcome() is None and not start.is_game_over()
    move = start.legal_moves()[0]
    after = start.push(move)
    assert after.ply == 1 and type(after) is type(start)


@pytest.mark.parametrize("game", sorted(STARTS))
def test_each_game_move_strings_round_trip(game: str) -> None:
    rules = {"xand0": xand0, "connect4": connect4, "dots": dots}[game]
    for move in STARTS[game].legal_moves():
        assert rules.parse_move(rules.format_move(move)) == move


def test_the_engines_fit_the_engine_protocol_at_run_time() -> None:
    for engine in (xand0_bot.choose_move, connect4_bot.choose_move, dots_bot.choose_move):
        inspect.signature(engine).bind(None, 1, None)
    inspect.signature(connect4_bot.choose_move).bind(None, 1, None, 0.5)
    assert all(callable(getattr(board, name)) for name in ("text_game", "end_words"))

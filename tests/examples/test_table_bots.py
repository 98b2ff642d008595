"""The example games at the table: they take back whole moves, and their bots answer draw
offers and takebacks sensibly (a draw only when not winning; a takeback of whole moves)."""

from __future__ import annotations

import asyncio
import secrets

from examples.board.rules import FIRST, SECOND
from examples.connect4.game import Connect4Bot
from examples.dots.game import DotsBot, DotsGame
from examples.xand0.game import Xand0Bot, Xand0Game
from examples.xand0.rules import Board
from sdk import Offer, RelayHost, State
from sdk.testing import FAST, local_relay
from tests.support.desk import DeskHost


def draw(by: int = 0, at: int = 1) -> Offer:
    return Offer("draw", by, at, "offered")


def takeback(count: int, by: int = 0, at: int = 3) -> Offer:
    return Offer("takeback", by, at, "offered", count)


def test_a_board_game_takes_back_moves_and_passes_in_order() -> None:
    host = DeskHost()
    game = Xand0Game(host, True)
    game.play("11")
    host.now = State.PLAYING_WAIT_MOVE
    assert game.receive_move("00") is State.PLAYING_TO_MOVE
    host.now = State.PLAYING_TO_MOVE
    game.play("22")
    game.undo(1)
    assert game.board == Board.from_moves(["11", "00"])
    game.undo(2)
    assert game.board == Board.empty() and game.last is None and game.plies == []


def test_a_takeback_of_a_forced_pass_is_declined() -> None:
    host = DeskHost()
    game = DotsGame(host, False)  # the partner (first) closes a box and moves again
    for line in ("h00", "h10", "v00"):
        assert game.receive_move(line) is State.PLAYING_TO_MOVE
        host.now = State.PLAYING_TO_MOVE
        game.play({"h00": "h30", "h10": "h31", "v00": "h32"}[line])
    assert game.receive_move("v01") is State.PLAYING_WAIT_MOVE  # closes box 0,0: we pass
    # The partner asks for its move and our (forced) pass back: not whole moves.
    assert game.takeback_fits(False, 2) is False
    assert game.consider_offer(takeback(2)) is False
    # Its own box-closing move alone, had it been asked before our pass, is a whole move.
    assert game.plies[-2][3] is True and game.plies[-1][3] is False


def test_the_xand0_bot_takes_a_draw_only_when_it_is_not_winning() -> None:
    bot = Xand0Bot(DeskHost(), False)
    assert bot.me == SECOND
    assert bot.consider_offer(draw()) is True  # the empty board is a draw with perfect play
    bot.board = Board.from_text("X../.O./..X")
    assert bot.consider_offer(draw()) is True
    bot.board = Board.from_text("XX./OO./X..")  # O to move wins at once
    assert bot.board.turn == SECOND
    assert bot.consider_offer(draw()) is False


def test_the_connect4_and_dots_bots_judge_their_position() -> None:
    ahead = Connect4Bot(DeskHost(), True)
    for column in "33442":
        ahead.board = ahead.board.push(ahead.rules.parse_move(column))
    assert ahead.me == FIRST
    assert ahead.rules.judge is not None and ahead.rules.judge(ahead.board, FIRST) > 0
    assert ahead.consider_offer(draw()) is False
    even = Connect4Bot(DeskHost(), False)
    assert even.consider_offer(draw()) is (even.rules.judge(even.board, SECOND) <= 0)  # type: ignore[misc]
    dots = DotsBot(DeskHost(), True)
    assert dots.consider_offer(draw()) is True  # no box yet: not ahead


def test_bots_take_back_whole_moves_only() -> None:
    host = DeskHost()
    bot = Xand0Bot(host, True)
    host.now = State.PLAYING_TO_MOVE
    bot.play("11")
    host.now = State.PLAYING_WAIT_MOVE
    bot.receive_move("00")
    assert bot.consider_offer(takeback(2, by=1)) is False  # its move first, not the asker's
    assert bot.consider_offer(takeback(1, by=1)) is True
    assert bot.consider_offer(takeback(3, by=1)) is False


async def until(check: object, timeout: float = 10.0) -> None:
    """Returns once check() is true (looked at every 50 ms); fails after timeout seconds."""
    assert callable(check)
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not true after {timeout} s")


async def test_a_player_takes_a_move_back_against_the_bot_through_the_relay() -> None:
    room = secrets.token_hex(6)
    async with local_relay() as relay:
        person = RelayHost(relay, "xand0", Xand0Game, version="1", room=room, timing=FAST)
        bot = RelayHost(
            relay, "xand0", lambda host, first: Xand0Bot(host, first, level=3), version="1",
            room=room, timing=FAST,
        )  # fmt: skip
        tasks = [asyncio.ensure_future(host.play()) for host in (person, bot)]
        try:
            await until(lambda: person.state is State.PLAYING_TO_MOVE)
            game = person.game
            assert isinstance(game, Xand0Game)
            start = game.ply
            game.play(game.rules.format_move(game.board.legal_moves()[0]))
            await until(lambda: person.state is State.PLAYING_TO_MOVE and game.ply == start + 2)
            await person.ask_takeback()
            await until(lambda: game.ply == start and person.state is State.PLAYING_TO_MOVE)
            bot_game = bot.game
            assert isinstance(bot_game, Xand0Bot)
            assert bot_game.ply == start and bot_game.board == game.board
            assert bot.state is State.PLAYING_WAIT_MOVE
        finally:
            for host in (person, bot):
                host.resign()
            await asyncio.wait_for(asyncio.gather(*tasks), 10)

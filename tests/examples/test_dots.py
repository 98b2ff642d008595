"""Dots and Boxes: the rules (a closed box keeps the turn), the bot, and matches through a real
relay in which the receiver of a box-closing move passes, and a false pass is disputed."""

from __future__ import annotations

import functools
import random
import sys

import aiohttp
import pytest

from examples.board.rules import FIRST, SECOND, IllegalMoveError
from examples.dots.bot import MAX_LEVEL, choose_move
from examples.dots.game import DotsBot, DotsGame
from examples.dots.rules import LINES, Board, Line, box_sides, format_move, parse_move, render
from sdk import Event, GameHost, Moved, MoveRejected, Passed, Reason, RelayClient, Result, State
from sdk.testing import FAST, PairResult, play_pair
from tests.support.desk import DeskHost
from tests.support.processes import run_together
from tests.support.relay_process import ROOT

BOX = ["h00", "h10", "v00"]  # three sides of the top-left box: the fourth, v01, closes it


def test_a_line_that_closes_a_box_keeps_the_turn_and_scores() -> None:
    board = Board.from_moves(BOX)
    assert board.turn == SECOND  # X, O, X drew the three sides: O to move
    closed = board.push(parse_move("v01"))
    assert (closed.turn, closed.score(), closed.box_owner(0, 0)) == (SECOND, (0, 1), SECOND)
    assert closed.push(parse_move("h32")).turn == FIRST  # closing nothing hands the turn over


def test_one_line_can_close_two_boxes() -> None:
    board = Board.from_moves(["h00", "h10", "v00", "h01", "h11", "v02"])
    both = board.push(parse_move("v01"))
    assert both.score() == (2, 0) and both.turn == board.turn == FIRST


def test_every_random_game_gives_all_nine_boxes_and_a_winner() -> None:
    for seed in range(50):
        rng, board = random.Random(seed), Board.empty()
        while not board.is_game_over():
            board = board.push(rng.choice(board.legal_moves()))
        outcome = board.outcome()
        assert outcome is not None and sum(board.score()) == 9 and board.ply == len(LINES)
        first, second = board.score()
        assert outcome.winner == (FIRST if first > second else SECOND)


@pytest.mark.parametrize(
    ("text", "why"),
    [("h0", "is not a line"), ("x01", "is not a line"), ("h03", "off the board"),
     ("v30", "off the board")],
)  # fmt: skip
def test_bad_lines_are_refused(text: str, why: str) -> None:
    with pytest.raises(IllegalMoveError, match=why):
        parse_move(text)


def test_a_line_drawn_twice_is_refused_and_the_text_round_trips() -> None:
    board = Board.from_moves(["h00"])
    with pytest.raises(IllegalMoveError, match="drawn already"):
        board.push(Line("h", 0, 0))
    assert [format_move(parse_move(m)) for m in ("h00", "v12", "h32")] == ["h00", "v12", "h32"]
    assert repr(Board.from_moves(BOX)).startswith("Board(")
    assert "#" in render(Board.from_moves(["v01"]), parse_move("v01"))


def test_the_careful_bot_closes_boxes_and_gives_none_away() -> None:
    rng = random.Random(1)
    assert choose_move(Board.from_moves(BOX), MAX_LEVEL, rng) == Line("v", 0, 1)
    # With two sides of every box left open, no line hands a box over: the bot draws none
    # that makes a box's third side.
    board = Board.from_moves(["h00", "h11"])
    for _ in range(20):
        line = choose_move(board, MAX_LEVEL, rng)
        after = board.push(line)
        assert all(
            sum(after.is_drawn(s) for s in box_sides(r, c)) < 3 for r in range(3) for c in range(3)
        )


async def relay_log(relay: str, pair: PairResult) -> list[Event]:
    ticket = pair.hosts[0].ticket
    assert ticket is not None
    async with aiohttp.ClientSession() as session:
        return await RelayClient(session, relay, FAST).events(ticket.match, 0)


@pytest.mark.timeout(60)
async def test_two_bots_play_through_a_real_relay_with_passes_for_closed_boxes(
    relay_url: str,
) -> None:
    bots = [functools.partial(DotsBot, rng=random.Random(seed)) for seed in (3, 4)]
    pair = await play_pair(*bots, relay_url=relay_url, game_key="dots")
    assert pair.reasons == (Reason.AGREED, Reason.AGREED)
    assert sorted(pair.results) == [Result.LOST, Result.WON]
    assert all(isinstance(g, DotsGame) and g.board.is_game_over() for g in pair.games)
    log = await relay_log(relay_url, pair)
    passes = [i for i, event in enumerate(log) if isinstance(event, Passed)]
    assert passes  # nine boxes: someone closed one, and the other passed
    for i in passes:  # each pass answers the partner's move, which closed a box
        before, passed = log[i - 1], log[i]
        assert isinstance(before, Moved) and isinstance(passed, Passed)
        assert before.seat != passed.seat
    assert sum(isinstance(event, Moved) for event in log) == len(LINES)


class PassesAtOnce(DotsGame):
    """A broken client: passes on its first turn, though the rules give it a move."""

    def enable(self) -> None:
        self.host.pass_turn()


@pytest.mark.timeout(60)
async def test_a_false_pass_is_disputed_by_the_partners_dots_game(relay_url: str) -> None:
    def cheat_first(host: GameHost, first_move: bool) -> DotsGame:
        return (PassesAtOnce if first_move else DotsGame)(host, first_move)

    pair = await play_pair(cheat_first, cheat_first, relay_url=relay_url, game_key="dots")
    assert pair.reasons == (Reason.DISPUTED, Reason.DISPUTED)
    honest = next(side for side in (0, 1) if not isinstance(pair.games[side], PassesAtOnce))
    assert "rejected your partner's pass at move 1: a pass, with a move to make. Disputed." in (
        " ".join(pair.dialogs[honest])
    )
    assert pair.outcomes[honest].by_me


@pytest.mark.timeout(60)
def test_two_bot_processes_play_dots_through_a_relay(relay_url: str) -> None:
    command = [sys.executable, "-m", "examples.dots", "--relay", relay_url, "--room",
               "dots-cli", "--bot"]  # fmt: skip
    ends = run_together([command, [*command, "1"]], ROOT)
    assert [end.returncode for end in ends] == [0, 0], ends
    outs = sorted(end.stdout.strip() for end in ends)
    assert all(out.startswith("Dots and Boxes bot (level ") for out in outs), outs
    assert [": won, 24 moves" in o or ": lost, 24 moves" in o for o in outs] == [True, True]


def test_the_game_answers_pass_when_the_partner_closed_a_box() -> None:
    x, o = DotsGame(DeskHost(), True), DotsGame(DeskHost(), False)
    for game in (x, o):
        game.board = Board.from_moves(BOX)  # X, O, X drew three sides: O to move
    o.play("v01")  # O closes the box, and moves again
    assert x.receive_move("v01") is State.PLAYING_WAIT_MOVE  # so X passes
    assert o.receive_pass() is State.PLAYING_TO_MOVE  # and O takes the turn
    with pytest.raises(MoveRejected):
        x.receive_pass()  # a pass to X now is one the rules do not call for

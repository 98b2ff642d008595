"""The example games as SDK Games: moves checked, results, resuming, and bots through a relay."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
import secrets

import aiohttp
import pytest

import sdk
from examples.board.rules import FIRST, SECOND, IllegalMoveError
from examples.connect4.game import Connect4Bot, Connect4Game
from examples.xand0.game import Xand0Bot, Xand0Game
from examples.xand0.rules import Board, Move
from sdk import (
    Game,
    GameHost,
    MoveRejected,
    Played,
    Reason,
    RelayClient,
    RelayHost,
    Result,
    Started,
    State,
)
from sdk.testing import FAST, play_pair, run_pair
from tests.support.desk import DeskHost


class Scripted(Game):
    """A client of another author: it plays its script of moves, whatever they are."""

    def __init__(self, host: GameHost, first_move: bool, script: list[tuple[str, bool]]) -> None:
        super().__init__(host, first_move)
        self.script = list(script)

    def enable(self) -> None:
        move, end = self.script.pop(0)
        self.host.move(move, end_game=end)

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        return State.PLAYING_TO_MOVE


def test_a_move_is_sent_with_end_game_exactly_when_it_ends_the_game() -> None:
    host = DeskHost()
    game = Xand0Game(host, True)
    game.board = Board.from_text("XX./OO./...")
    game.play("02")
    assert host.sent == [("02", False)]
    host.now = State.PLAYING_TO_MOVE
    assert game.receive_move("12") is State.PLAYING_TO_MOVE
    game.play("20")
    assert host.sent[-1] == ("20", True)
    assert game.result() is Result.WON


@pytest.mark.parametrize("bad", ["11", "9", "x", "", "111"])
def test_an_illegal_move_of_this_side_raises_and_sends_nothing(bad: str) -> None:
    host = DeskHost()
    game = Xand0Game(host, True)
    game.board = Board.from_text("X../.O./...")
    with pytest.raises(IllegalMoveError):
        game.play(bad)
    assert host.sent == [] and game.board == Board.from_text("X../.O./...")


@pytest.mark.parametrize("bad", ["00", "9", "", "0 ", "33"])
def test_an_illegal_partner_move_is_rejected_so_the_host_disputes_it(bad: str) -> None:
    host = DeskHost(State.PLAYING_WAIT_MOVE)
    game = Xand0Game(host, False)
    assert game.receive_move("00") is State.PLAYING_TO_MOVE
    with pytest.raises(MoveRejected) as rejected:
        game.receive_move(bad)
    # The reason goes with the dispute: the host's dialogs and the partner's say it.
    assert rejected.value.reason == _why(bad)
    assert host.dialogs == []
    assert game.result() is None


def _why(bad: str) -> str:
    try:
        Board.from_moves(["00", bad])
    except IllegalMoveError as error:
        return str(error)
    raise AssertionError(f"{bad!r} is legal")


def test_the_board_kit_raises_the_sdks_one_illegal_move_error() -> None:
    assert IllegalMoveError is sdk.IllegalMoveError
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(IllegalMoveError, MoveRejected)  # raised in receive_move: a dispute
    with pytest.raises(sdk.IllegalMoveError):
        Board.from_moves(["00", "00"])


class OwnIllegalMoveError(ValueError):
    """Raised by rules written before the SDK had one illegal-move error (the skeleton's)."""


@pytest.mark.parametrize(
    "error",
    [
        OwnIllegalMoveError("no such square: '44'"),
        ValueError("no such square: '44'"),
        KeyError("no such square: '44'"),
        RuntimeError("no such square: '44'"),
    ],
    ids=repr,
)
def test_any_error_of_the_rules_on_a_partner_move_is_a_dispute_with_its_words(
    error: Exception,
) -> None:
    def parse_move(text: str) -> Move:
        raise error

    class Quirky(Xand0Game):
        rules = dataclasses.replace(Xand0Game.rules, parse_move=parse_move)

    game = Quirky(DeskHost(State.PLAYING_WAIT_MOVE), False)
    with pytest.raises(MoveRejected) as rejected:
        game.receive_move("44")
    assert "no such square: '44'" in rejected.value.reason
    assert game.board == Board.empty() and game.plies == []


async def test_a_partner_move_the_rules_fail_on_ends_disputed_never_in_a_traceback(
    relay_url: str,
) -> None:
    def parse_move(text: str) -> Move:
        if text == "44":
            raise OwnIllegalMoveError(f"no such square: {text!r}")
        return Xand0Game.rules.parse_move(text)

    class Quirky(Xand0Bot):  # a bot, so that it plays when it moves first
        rules = dataclasses.replace(Xand0Game.rules, parse_move=parse_move)

    pair = await play_pair(
        lambda host, first: Scripted(host, first, [("44", False)] * 9),
        functools.partial(Quirky, level=1),
        relay_url=relay_url,
        game_key="quirky-" + secrets.token_hex(4),
    )
    assert pair.reasons == (Reason.DISPUTED, Reason.DISPUTED)
    assert pair.outcomes[0].detail == "no such square: '44'"


def test_a_connect4_move_into_a_full_column_is_a_dispute() -> None:
    host = DeskHost(State.PLAYING_WAIT_MOVE)
    game = Connect4Game(host, True)
    game.restore([Played(i % 2 == 0, "3") for i in range(5)])
    assert game.receive_move("3") is State.PLAYING_TO_MOVE
    with pytest.raises(MoveRejected) as rejected:
        game.receive_move("3")
    assert "column 3 is full" in rejected.value.reason


def test_restore_rebuilds_the_board_and_the_last_move_from_the_log() -> None:
    game = Connect4Game(DeskHost(), True)
    game.restore([Played(True, "3"), Played(False, "3"), Played(True, "4")])
    assert (game.ply, game.last_move, game.board.height(3)) == (3, "4", 2)
    passed = Xand0Game(DeskHost(), True)
    passed.restore([Played(True, "00"), Played(False, None)])  # a pass changes no board
    assert (passed.ply, passed.last_move, passed.board.turn) == (1, "00", 1)


def test_result_is_drawn_lost_or_won_from_this_sides_view() -> None:
    drawn = Xand0Game(DeskHost(), True)
    drawn.board = Board.from_moves(["11", "00", "22", "02", "01", "21", "20", "10", "12"])
    lost = Xand0Game(DeskHost(), False)
    lost.board = Board.from_moves(["00", "10", "11", "20", "22"])
    assert (drawn.result(), lost.result()) == (Result.DRAWN, Result.LOST)


@pytest.mark.timeout(60)
def test_perfect_xand0_bots_always_draw_through_a_real_relay(relay_url: str) -> None:
    for seed in range(4):
        bots = [functools.partial(Xand0Bot, rng=random.Random(seed * 2 + i)) for i in (0, 1)]
        pair = run_pair(*bots, relay_url=relay_url, game_key="xand0")
        assert [(o.result, o.reason) for o in pair.outcomes] == [(Result.DRAWN, Reason.AGREED)] * 2
        assert [game.ply for game in pair.games] == [9, 9]  # type: ignore[union-attr]


@pytest.mark.timeout(60)
def test_connect4_bots_play_a_whole_game_through_a_real_relay(relay_url: str) -> None:
    bots = [
        functools.partial(Connect4Bot, level=level, rng=random.Random(level)) for level in (2, 3)
    ]
    pair = run_pair(*bots, relay_url=relay_url, game_key="connect4")
    assert [o.reason for o in pair.outcomes] == [Reason.AGREED] * 2
    assert sorted(o.result for o in pair.outcomes) in (
        [Result.LOST, Result.WON],
        [Result.DRAWN, Result.DRAWN],
    )
    # Each side is told the result in the game's words, as the ender's game sent them.
    said = {"four in a row", "the board is full"}
    assert pair.outcomes[0].detail == pair.outcomes[1].detail and pair.outcomes[0].detail in said
    assert [len(dialogs) for dialogs in pair.dialogs] == [1, 1]
    assert all(d[0].endswith(f": {pair.outcomes[0].detail}.") for d in pair.dialogs)


@pytest.mark.parametrize(
    ("script", "dispute"),
    [
        ([("99", False)], "move '99' is not two digits"),
        ([("11", True)], None),
    ],
    ids=["illegal-move", "end-that-is-not-an-end"],
)
async def test_a_foreign_client_that_breaks_the_rules_gets_a_dispute(
    relay_url: str, script: list[tuple[str, bool]], dispute: str | None
) -> None:
    # Both sides' first move is the script's: a bot that moves first plays 11 and the
    # scripted "11" is then illegal too. Either way the match ends disputed, never crashed.
    cheat = functools.partial(Scripted, script=script * 2)
    pair = await play_pair(Xand0Bot, cheat, relay_url=relay_url, game_key="xand0", timing=FAST)
    assert [o.reason for o in pair.outcomes] == [Reason.DISPUTED] * 2
    assert [o.result for o in pair.outcomes] == [Result.UNKNOWN] * 2
    if dispute is not None:
        # Whoever moved first, the bot's host says its game rejected the move, and why.
        said = [
            text for text in pair.dialogs[0] if "Your game rejected your partner's move" in text
        ]
        assert len(said) == 1 and dispute in said[0], pair.dialogs


async def test_a_resumed_xand0_bot_restores_the_board_and_finishes(relay_url: str) -> None:
    room = "resume-" + secrets.token_hex(6)
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay_url, FAST)
        seats = [await client.seek("xand0", "1", room) for _ in range(2)]
        started = (await client.events(seats[0], 0))[0]
        assert isinstance(started, Started)
        first, second = seats[started.first], seats[1 - started.first]
        await client.move(first, 1, "11")
        await client.move(second, 2, "00")
        hosts = [
            RelayHost.resume(relay_url, ticket, Xand0Bot, timing=FAST, session=session)
            for ticket in seats
        ]
        async with asyncio.timeout(30):
            outcomes = await asyncio.gather(*(host.play() for host in hosts))
    assert [o.reason for o in outcomes] == [Reason.AGREED] * 2
    games = [host.game for host in hosts]
    for game in games:
        assert isinstance(game, Xand0Bot)
        assert Board.from_text(game.board.to_text()).piece_at(Move(1, 1)) == FIRST
        assert game.board.piece_at(Move(0, 0)) == SECOND

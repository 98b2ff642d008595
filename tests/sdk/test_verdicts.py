"""Verdicts without and with a referee: a rejected move's reason reaches the relay, the words
say what happened, and a referee's `over`, `illegal` and `disputed` give a real result."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import aiohttp
import pytest

from sdk import (
    Ended,
    Event,
    Game,
    GameHost,
    Moved,
    MoveRejected,
    Passed,
    Reason,
    RelayClient,
    Result,
    Started,
    State,
    Ticket,
)
from sdk._answers import reply_to
from sdk._endings import NOT_OVER, SELF_DISPUTED, UNCLAIMED_END, ending, rejected
from sdk._resume import move_number
from sdk.errors import NO_PASS_REASON, NO_REASON, REASON_LIMIT, RelayRefusedError, clean_reason
from sdk.events import parse_event
from sdk.host.driver import Driver
from sdk.host.machine import Machine
from sdk.outcome import Outcome
from sdk.record import parse_record
from sdk.testing import FAST
from tests.sdk.scripted import Side, play_pair, relay_log, ticket_of
from tests.support.desk import DeskHost

FULL = "column 3 is full"

# -- MoveRejected's reason --------------------------------------------------------------------


def test_a_rejection_carries_its_reason_or_the_default() -> None:
    assert MoveRejected(FULL).reason == FULL
    assert str(MoveRejected(FULL)) == FULL
    assert MoveRejected().reason == NO_REASON
    assert MoveRejected("  \n ").reason == NO_REASON
    assert repr(MoveRejected(FULL)) == "MoveRejected('column 3 is full')"


def test_a_reason_is_made_one_line_of_at_most_200_characters() -> None:
    assert clean_reason(" two\nlines\tand\x00a null ") == "two lines and a null"
    assert clean_reason("a\u2028b\x85c") == "a b c"
    assert len(clean_reason("x" * 500)) == REASON_LIMIT
    assert MoveRejected("é" * 300).reason == "é" * REASON_LIMIT


# -- the ended event's new fields ---------------------------------------------------------------


def test_an_ended_event_reads_at_detail_and_a_referees_winner() -> None:
    plain = parse_event({"type": "ended", "seq": 5, "reason": "agreed", "seat": 1})
    assert plain == Ended(5, "agreed", 1)
    assert not plain.refereed
    disputed = parse_event(
        {"type": "ended", "seq": 5, "reason": "disputed", "seat": 1, "at": 4, "detail": FULL}
    )
    assert disputed == Ended(5, "disputed", 1, at=4, detail=FULL)
    drawn = parse_event(
        {"type": "ended", "seq": 9, "reason": "over", "seat": 0, "at": 8, "winner": None}
    )
    assert drawn == Ended(9, "over", 0, at=8, winner=None, refereed=True)
    illegal = parse_event(
        {"type": "ended", "seq": 9, "reason": "illegal", "seat": 0, "at": 8, "winner": 1}
    )
    assert (illegal.reason, illegal.winner, illegal.refereed) == ("illegal", 1, True)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "bad",
    [{"at": 9}, {"at": "4"}, {"winner": 2}, {"detail": 3}],
    ids=["at-not-before", "at-not-int", "winner-not-seat", "detail-not-text"],
)
def test_an_ended_event_with_bad_fields_is_a_protocol_error(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        parse_event({"type": "ended", "seq": 9, "reason": "over", "seat": 0, **bad})


def test_a_records_header_result_reads_as_the_full_ending() -> None:
    header = (
        b'{"record":1,"match":"m","game":"g","version":"","room":null,"first":0,'
        b'"status":"finished","events":3,"result":{"reason":"illegal","seat":0,"at":2,'
        b'"winner":1,"detail":"column 3 is full"}}\n'
        b'{"type":"started","seq":1,"first":0}\n'
        b'{"type":"move","seq":2,"seat":0,"move":"3","end":false}\n'
        b'{"type":"ended","seq":3,"reason":"illegal","seat":0,"at":2,"winner":1,'
        b'"detail":"column 3 is full"}\n'
    )
    record = parse_record("m", header)
    assert record.result == ("illegal", 0)
    assert record.ending == Ended(3, "illegal", 0, at=2, detail=FULL, winner=1, refereed=True)
    assert record.events[-1] == record.ending


# -- the words ------------------------------------------------------------------------------------


def words(ended: Ended, seat: int, about: Moved | Passed | None = None, number: int | None = 12,
          game: Result | None = None) -> tuple[Result, Reason, str | None]:  # fmt: skip
    return ending(ended, seat, lambda: game, about, number)


def test_the_referee_finding_a_move_illegal_tells_the_offender_it_lost() -> None:
    ended = Ended(30, "illegal", 0, at=29, detail=FULL, winner=1, refereed=True)
    assert words(ended, 0) == (
        Result.LOST,
        Reason.ILLEGAL,
        "The referee found your move 12 illegal: column 3 is full. You lose.",
    )
    assert words(ended, 1) == (
        Result.WON,
        Reason.ILLEGAL,
        "The referee found your partner's move 12 illegal: column 3 is full. You win.",
    )


def test_the_referee_finding_the_game_over_gives_the_winner() -> None:
    won = Ended(30, "over", 1, at=29, detail="four in a row", winner=1, refereed=True)
    # The game knows the result, but only the referee says how: its words are told.
    assert words(won, 1, game=Result.WON) == (Result.WON, Reason.OVER, "You win: four in a row.")
    assert words(won, 0, game=None) == (
        Result.LOST,
        Reason.OVER,
        "The referee found the game over at move 12: four in a row. You lose.",
    )
    drawn = Ended(30, "over", 1, at=29, detail="the board is full", winner=None, refereed=True)
    assert words(drawn, 0, game=Result.DRAWN) == (
        Result.DRAWN, Reason.OVER, "A draw: the board is full."
    )  # fmt: skip
    assert words(drawn, 0)[2] == (
        "The referee found the game over at move 12: the board is full. It is a draw."
    )


def test_a_refereed_dispute_of_a_legal_move_loses_for_the_disputer() -> None:
    ended = Ended(30, "disputed", 1, at=29, detail=FULL, winner=0, refereed=True)
    assert words(ended, 1) == (
        Result.LOST,
        Reason.DISPUTED,
        "Your game disputed your partner's move 12, but the referee found it legal. You lose.",
    )
    assert words(ended, 0) == (
        Result.WON,
        Reason.DISPUTED,
        "Your partner's game disputed your move 12, but the referee found it legal. You win.",
    )


def test_a_dispute_without_a_referee_says_which_move_and_why() -> None:
    ended = Ended(30, "disputed", 1, at=29, detail=FULL)
    move = Moved(29, 0, "3", False)
    assert words(ended, 0, move) == (
        Result.UNKNOWN,
        Reason.DISPUTED,
        "Your partner's game rejected your move 12: column 3 is full. Disputed.",
    )
    # A side that resumed after disputing reads its own dispute from the log.
    assert words(ended, 1, move)[2] == rejected(12, False, FULL)
    assert rejected(12, False, FULL) == (
        "Your game rejected your partner's move 12: column 3 is full. Disputed."
    )
    passed = Ended(30, "disputed", 1, at=29, detail=NO_PASS_REASON)
    assert words(passed, 0, Passed(29, 0))[2] == (
        "Your partner's game rejected your pass at move 12: there was a move to make. Disputed."
    )
    # An end the partner's game does not agree with keeps its words.
    not_over = Ended(30, "disputed", 1, at=29, detail=NOT_OVER)
    assert words(not_over, 1, Moved(29, 0, "3", True))[2] == SELF_DISPUTED


def test_the_move_number_counts_moves_and_passes_in_play() -> None:
    log: list[Event] = [
        Started(1, 0),
        Moved(2, 0, "a", False),
        Passed(3, 1),
        Moved(4, 0, "b", False),
    ]
    events = {event.seq: event for event in log}
    assert [move_number(events, seq) for seq in (1, 2, 3, 4, None)] == [None, 1, 2, 3, None]


# -- the host: the reason sent, the verdict taken, a refused confirm ridden out ------------------


class Judged(Game):
    """A game that answers the partner's one move as told: rejects it, agrees, or plays on."""

    def __init__(self, host: GameHost, first_move: bool, answer: State | str) -> None:
        super().__init__(host, first_move)
        self.answer = answer
        self.claims: list[bool] = []

    def enable(self) -> None:
        pass

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        self.claims.append(self.host.end_claimed)
        if isinstance(self.answer, str):
            raise MoveRejected(self.answer)
        return self.answer

    def result(self) -> Result | None:
        return Result.LOST if self.answer is State.GAME_ENDED else None


class Watching(DeskHost):
    """A desk host that says what its machine says of the move being received."""

    machine: Machine | None = None

    @property
    def end_claimed(self) -> bool:
        return self.machine is not None and self.machine.end_claimed


class ScriptedRelay:
    """A relay that has the whole log already, as a referee makes it: the partner's move and
    its verdict at once; every confirm is refused `409 match/finished`, as the relay answers
    the confirm of a match the referee ended."""

    def __init__(self, log: Sequence[Event]) -> None:
        self.log = list(log)
        self.timing = FAST
        self.confirms: list[tuple[int, bool, str]] = []

    async def events(self, ticket: Ticket, after: int, wait: int = 0) -> list[Event]:
        return [event for event in self.log if event.seq > after]

    async def read(self, ticket: Ticket, after: int, *args: Any) -> tuple[list[Event], None]:
        return await self.events(ticket, after), None

    async def confirm(self, ticket: Ticket, after: int, agree: bool, reason: str = "") -> int:
        self.confirms.append((after, agree, reason))
        raise RelayRefusedError(409, "match/finished", "the match is over")


async def judged(answer: State | str, end: bool, verdict: Ended) -> tuple[Outcome, Any, Any]:
    """Plays seat 1 against a log of one partner move (`end`: sent as the end) and `verdict`."""
    log: list[Event] = [Started(1, 0), Moved(2, 0, "3", end), verdict]
    dialogs: list[str] = []
    games: list[Judged] = []

    def make(host: GameHost, first_move: bool) -> Game:
        games.append(Judged(host, first_move, answer))
        return games[0]

    host = Watching()
    machine = host.machine = Machine(host, make, dialogs.append, lambda state: None)
    machine.ticket = Ticket("m", 1, "token")
    relay = ScriptedRelay(log)
    driver = Driver(machine)

    async def no_seek(client: RelayClient) -> Ticket:
        raise AssertionError("seated already")

    async with asyncio.timeout(5):
        outcome = await driver.run(relay, no_seek)  # type: ignore[arg-type]
    return outcome, (dialogs, relay.confirms), games[0]


async def test_a_refereed_end_queued_with_its_move_is_read_not_confirmed() -> None:
    over = Ended(3, "over", 0, at=2, detail="four in a row", winner=0, refereed=True)
    outcome, (dialogs, confirms), game = await judged(State.GAME_ENDED, True, over)
    assert confirms == []  # the end came with the move: a confirm would be refused as finished
    assert (outcome.result, outcome.reason, outcome.winner, outcome.at) == (
        Result.LOST, Reason.OVER, 0, 2
    )  # fmt: skip
    assert outcome.detail == "four in a row" and outcome.refereed
    assert dialogs == ["You lose: four in a row."]  # the game agreed; the referee says how
    assert game.claims == [True]


async def test_a_rejected_end_the_referee_finds_over_is_lost_and_told() -> None:
    over = Ended(3, "over", 0, at=2, detail="four in a row", winner=0, refereed=True)
    outcome, (dialogs, confirms), _ = await judged("no four in a row here", True, over)
    assert confirms == [(2, False, "no four in a row here")]
    assert (outcome.result, outcome.reason) == (Result.LOST, Reason.OVER)
    assert dialogs == [
        "Your game rejected your partner's move 1: no four in a row here. Disputed.",
        "The referee found the game over at move 1: four in a row. You lose.",
    ]
    assert outcome.message == dialogs[-1]


async def test_a_rejected_move_the_referee_finds_illegal_is_won() -> None:
    illegal = Ended(3, "illegal", 0, at=2, detail=FULL, winner=1, refereed=True)
    outcome, (dialogs, confirms), game = await judged(FULL, False, illegal)
    assert confirms == [(2, False, FULL)]
    assert (outcome.result, outcome.reason, outcome.by, outcome.by_me) == (
        Result.WON, Reason.ILLEGAL, 0, False
    )  # fmt: skip
    assert dialogs[-1] == (
        "The referee found your partner's move 1 illegal: column 3 is full. You win."
    )
    assert game.claims == [False]


async def test_a_dispute_the_referee_rejects_is_lost_by_the_disputer() -> None:
    upheld = Ended(3, "disputed", 1, at=2, detail=FULL, winner=0, refereed=True)
    outcome, (dialogs, _), _ = await judged(FULL, False, upheld)
    assert (outcome.result, outcome.reason, outcome.by_me) == (Result.LOST, Reason.DISPUTED, True)
    assert dialogs[-1] == (
        "Your game disputed your partner's move 1, but the referee found it legal. You lose."
    )


async def test_every_dispute_the_host_makes_sends_a_reason() -> None:
    disputed = Ended(3, "disputed", 1, at=2)
    cases: list[tuple[State | str, bool, str]] = [
        (FULL, False, FULL),
        (FULL, True, FULL),
        (State.GAME_ENDED, False, UNCLAIMED_END),
        (State.PLAYING_TO_MOVE, True, NOT_OVER),
    ]
    for answer, end, reason in cases:
        outcome, (_, confirms), _ = await judged(answer, end, disputed)
        assert confirms == [(2, False, reason)], (answer, end)
        assert (outcome.reason, outcome.by_me) == (Reason.DISPUTED, True)


# -- through a real relay ----------------------------------------------------------------------


async def test_a_rejected_moves_reason_reaches_the_partner_and_the_record(relay: str) -> None:
    played = await play_pair(relay, Side(["a1"]), Side([], reject="a1"))
    log = await relay_log(relay, played.match)
    end = log[-1]
    assert isinstance(end, Ended) and end.reason == "disputed"
    assert (end.at, end.detail) == (2, NO_REASON)
    theirs = played.outcome(True)
    assert theirs.message == f"Your partner's game rejected your move 1: {NO_REASON}. Disputed."
    assert (theirs.at, theirs.detail) == (2, NO_REASON)
    async with aiohttp.ClientSession() as session:
        record = await RelayClient(session, relay, FAST).record(ticket_of(played.first))
    assert record.ending is not None and record.ending.detail == NO_REASON


class Rejects(Game):
    """Rejects every move and pass with the text it is given (None: no reason)."""

    def __init__(self, host: GameHost, first_move: bool, said: str | None) -> None:
        super().__init__(host, first_move)
        self.said = said

    def enable(self) -> None:
        pass

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        raise MoveRejected(self.said)

    def receive_pass(self) -> State:
        raise MoveRejected(self.said)


@pytest.mark.parametrize(
    ("said", "event", "reason"),
    [
        (FULL, Moved(4, 0, "3", False), FULL),
        (None, Moved(4, 0, "3", False), NO_REASON),
        ("3", Moved(4, 0, "3", False), NO_REASON),  # MoveRejected(move), as games did before
        (None, Passed(4, 0), NO_PASS_REASON),
        ("pass", Passed(4, 0), NO_PASS_REASON),  # MoveRejected("pass"), as games did before
        ("no: a line is free", Passed(4, 0), "no: a line is free"),
    ],
)
def test_the_reason_sent_is_the_games_or_the_default(
    said: str | None, event: Moved | Passed, reason: str
) -> None:
    reply = reply_to(Rejects(DeskHost(), True, said), event, 3)
    assert (reply.kind, reply.reason) == ("dispute", reason)
    assert reply.dialog == rejected(3, isinstance(event, Passed), reason)

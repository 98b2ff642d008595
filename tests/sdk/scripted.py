"""A scripted, recording game and host: they log every call in order, for exact assertions."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from sdk import (
    Ended,
    Event,
    Game,
    GameFactory,
    GameHost,
    Moved,
    MoveRejected,
    Outcome,
    Passed,
    Played,
    RelayClient,
    RelayHost,
    Result,
    State,
    Ticket,
)
from sdk._endings import ending
from sdk._resume import move_number
from sdk.testing import FAST

__all__ = [
    "CRASH",
    "PASS",
    "REJECT",
    "RESIGN",
    "Call",
    "Crash",
    "RecordingHost",
    "ScriptedGame",
    "ScriptedMatch",
    "Side",
    "factory",
    "moves_in",
    "play_pair",
    "relay_log",
    "ticket_of",
    "told_of_dispute",
    "until",
]

Call = tuple[str, str, State]
"""One recorded call: its name, its argument (as text) and `host.state` during it."""

RESIGN = "<resign>"
"""A scripted 'move' that resigns instead."""
PASS = "<pass>"
"""A scripted 'move' that passes the turn by choice (host.pass_turn())."""
REJECT = "<reject>"
"""A scripted answer of receive_pass() that raises MoveRejected: the pass is false."""
CRASH = "<crash>"
"""A scripted 'move' that makes the game raise Crash, as a client crash would stop it."""


class Crash(Exception):
    """Raised by a scripted game to stop its host, as if the client had crashed."""


@dataclass
class Side:
    """What one side of a scripted match does."""

    moves: Sequence[str] = ()
    """Played one per enable(), in order; a move ending in '!' is sent with end_game=True."""
    answers: dict[str, State] = field(default_factory=dict)
    """What receive_move() answers to each partner move (default PLAYING_TO_MOVE)."""
    result: Result | None = None
    """What result() answers."""
    try_move_on_receive: bool = False
    """Whether receive_move() tries host.move() (which must refuse: it is not this side's turn)."""
    crash_on: str | None = None
    """A partner move on whose arrival receive_move() raises Crash."""
    reject: str | None = None
    """A partner move that receive_move() rejects (raises MoveRejected)."""
    pass_answers: list[State | str] | None = None
    """What receive_pass() answers, one per partner pass (State or REJECT); None: the game does
    not override receive_pass(), as games written before it existed."""
    stop_after: int | None = None
    """The number of this side's moves after whose acceptance its host stops, as if killed."""


CHANGES: list[asyncio.Event] = []
"""Events set whenever any RecordingHost changes state (see `until`)."""


async def until(condition: Callable[[], bool]) -> None:
    """Returns once `condition()` holds, checking it after each state change of any host."""
    changed = asyncio.Event()
    CHANGES.append(changed)
    try:
        while not condition():
            changed.clear()
            await changed.wait()
    finally:
        CHANGES.remove(changed)


class RecordingHost(RelayHost):
    """A RelayHost that records its dialogs and states next to its game's calls."""

    calls: list[Call]
    states: list[State]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls = []
        self.states = []
        self._on_state = self._record_state

    def _record_state(self, state: State) -> None:
        self.states.append(state)
        for changed in CHANGES:
            changed.set()
        game = self.game
        if not isinstance(game, ScriptedGame) or state is not State.PLAYING_WAIT_MOVE:
            return
        if game.side.stop_after == self.states.count(State.WAITING_SERVER_RESPONSE):
            task = asyncio.current_task()
            assert task is not None
            task.cancel()  # the client dies here: play() stops at its next await

    def show_dialog(self, text: str) -> None:
        self.calls.append(("show_dialog", text, self.state))


class ScriptedGame(Game):
    """Plays its Side's script and records every call the host makes."""

    def __init__(self, host: GameHost, first_move: bool, side: Side) -> None:
        super().__init__(host, first_move)
        assert isinstance(host, RecordingHost)
        self.relay_host = host
        self.side = side
        self.calls = host.calls
        self.moves = list(side.moves)
        self.record("created", str(first_move))

    def record(self, name: str, argument: str = "") -> None:
        self.calls.append((name, argument, self.host.state))

    def enable(self) -> None:
        self.record("enable")
        if not self.moves:
            return
        move = self.moves.pop(0)
        if move == RESIGN:
            self.relay_host.resign()
        elif move == CRASH:
            raise Crash
        elif move == PASS:
            self.host.pass_turn()
        else:
            self.host.move(move, end_game=move.endswith("!"))

    def disable(self) -> None:
        self.record("disable")

    def receive_move(self, move: str) -> State:
        self.record("receive_move", move)
        if move == self.side.crash_on:
            raise Crash
        if move == self.side.reject:
            raise MoveRejected(move)
        if self.side.try_move_on_receive:
            try:
                self.host.move("out-of-turn")
            except Exception as exc:
                self.record("refused", type(exc).__name__)
        return self.side.answers.get(move, State.PLAYING_TO_MOVE)

    def receive_pass(self) -> State:
        answers = self.side.pass_answers
        if answers is None:
            return super().receive_pass()
        self.record("receive_pass")
        answer = answers.pop(0)
        if answer == REJECT:
            raise MoveRejected()
        assert isinstance(answer, State)
        return answer

    def result(self) -> Result | None:
        self.record("result")
        return self.side.result

    def restore(self, history: Sequence[Played]) -> None:
        self.record("restore", " ".join(_played(p) for p in history))
        mine = sum(1 for p in history if p.mine and not p.is_pass)
        del self.moves[:mine]


def _played(played: Played) -> str:
    who = "me" if played.mine else "them"
    return f"{who}:{'pass' if played.move is None else played.move}"


def factory(first: Side, second: Side) -> GameFactory:
    """Returns a game factory giving the first mover `first`'s script and the other `second`'s."""

    def make(host: GameHost, first_move: bool) -> Game:
        return ScriptedGame(host, first_move, first if first_move else second)

    return make


@dataclass
class ScriptedMatch:
    """Both hosts of a scripted match, by role, with what each play() returned or raised."""

    first: RecordingHost
    second: RecordingHost
    results: dict[bool, Outcome | BaseException]

    def outcome(self, first_move: bool) -> Outcome:
        """Returns the outcome of the first mover's (or the second's) host."""
        result = self.results[first_move]
        assert isinstance(result, Outcome), result
        return result

    @property
    def match(self) -> str:
        """Returns the match id."""
        ticket = self.first.ticket
        assert ticket is not None
        return ticket.match


async def play_pair(
    relay_url: str,
    first: Side,
    second: Side,
    *,
    timeout: float = 30.0,
    players: Sequence[str | None] = (None, None),
) -> ScriptedMatch:
    """Plays a scripted match through the relay; a host that crashes is left stopped. The
    two hosts seek with the player keys `players` (None: none), in the order they seek."""
    room = "scripted-" + secrets.token_hex(6)
    make = factory(first, second)
    hosts = [
        RecordingHost(relay_url, "scripted", make, room=room, timing=FAST, player=key)
        for key in players
    ]
    async with asyncio.timeout(timeout):
        results = await asyncio.gather(*(h.play() for h in hosts), return_exceptions=True)
    by_role: dict[bool, RecordingHost] = {}
    outcomes: dict[bool, Outcome | BaseException] = {}
    for host, result in zip(hosts, results, strict=True):
        assert host.game is not None, result
        by_role[host.game.first_move] = host
        outcomes[host.game.first_move] = result
    return ScriptedMatch(by_role[True], by_role[False], outcomes)


def ticket_of(host: RelayHost) -> Ticket:
    """Returns a host's ticket, which must exist."""
    assert host.ticket is not None
    return host.ticket


async def relay_log(relay_url: str, match: str) -> list[Event]:
    """Returns the whole log of a match, read as a spectator."""
    async with aiohttp.ClientSession() as session:
        return await RelayClient(session, relay_url, FAST).events(match, 0)


def moves_in(log: Sequence[Event]) -> list[str]:
    """Returns the log's events in a short form: 'a1', 'pass', 'ended:agreed'..."""
    short = []
    for event in log:
        if isinstance(event, Moved):
            short.append(event.move)
        elif isinstance(event, Passed):
            short.append("pass")
        elif isinstance(event, Ended):
            short.append(f"ended:{event.reason}")
    return short


def told_of_dispute(log: Sequence[Event], seat: int) -> str:
    """Returns what the host of `seat` is told of the dispute that ends `log`, as the log's
    `ended` event has it: with the disputer's reason once the relay passes it on (`detail`,
    `at`), else the words of a dispute without one."""
    end = log[-1]
    assert isinstance(end, Ended) and end.reason == "disputed"
    events = {event.seq: event for event in log}
    about = events.get(end.at) if end.at is not None else None
    played = about if isinstance(about, Moved | Passed) else None
    dialog = ending(end, seat, lambda: None, played, move_number(events, end.at))[2]
    assert dialog is not None
    return dialog

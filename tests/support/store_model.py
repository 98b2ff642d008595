"""The store model the model-based tests run (tests/relay/store/test_store_model*.py): random
interleavings of every store operation on a real store, checked against a small model.

Seeks, polls, moves, retries, passes, confirms, resigns, cancels and grace expiries run over
several matches; the model predicts each answer, and invariants hold after every step: every
reader sees the same log, numbers are consecutive, each accepted move is in the log once, the
turn rule holds, and finished matches accept nothing. A second seeker pairs with a waiting
one at once, and play starts when the waiting seat polls again: mostly at once, as a live
client does, else at a later poll, unless the pair window lapses first (a correspondence
pairing starts at once). One game is played with a time control, so clocks, increments and
timeouts are in the mix. Each store's test is a file of its own, so that a parallel run
spreads them over its workers."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import relay.core.model
from relay import Action, RelayError, Store, StoreSettings, Ticket
from relay.core.clock import TimeControl, millis
from relay.core.rated import RatingRules

T = TypeVar("T")

COIN: list[Iterator[int]] = [itertools.cycle([0, 1, 1])]
"""The first movers the stores draw, in order; each machine starts the cycle anew."""

MODEL_SETTINGS = StoreSettings(
    grace=10.0, keep=30.0, max_waiting=3, ratings=RatingRules(unrefereed=True)
)
GRACE, KEEP = MODEL_SETTINGS.grace, MODEL_SETTINGS.keep
PAIR_WINDOW = MODEL_SETTINGS.pair_window
GAMES = ("go", "chess", "mail")
ROOMS = (None, None, "den", "attic")
CONTROLS = {
    "chess": TimeControl("fischer", 12, 2),
    "go": None,
    "mail": TimeControl("deadline", 25),
}
"""The time control each game is sought with."""
TEXTS = st.sampled_from(["", "a", "e2e4", "\U0001f600", 'q"uote', "x\ny"])


@dataclass
class Model:
    """What the store should hold about one match."""

    id: str
    game: str
    room: str | None
    tokens: list[str]
    now: float
    status: str = "waiting"
    first: int | None = None
    turn: int | None = None
    ender: int = -1
    log: list[dict[str, Any]] = field(default_factory=list)
    writes: list[tuple[Any, ...]] = field(default_factory=list)
    seen: list[float] = field(default_factory=list)
    since: float = 0.0
    rematch: dict[str, Any] = field(default_factory=dict)
    """The rematch as the store should report it: version, state, offers, by, match, at."""
    control: TimeControl | None = None
    clock: list[int] = field(default_factory=lambda: [0, 0])
    """Each seat's milliseconds left when its turn last started or ended."""
    turn_at: int = 0
    """When the current turn started (ms)."""
    paired: float | None = None
    """When a second seeker took seat 1 of this waiting match: play starts once seat 0 polls
    again, unless the pair window lapses first (None: not paired, or started)."""

    def start(self, first: int, now: float) -> None:
        """Opens play as the store is expected to: the started event, clocks full."""
        self.first = self.turn = first
        event: dict[str, Any] = {"type": "started", "first": first}
        if self.control is not None:
            self.clock = [self.control.base * 1000] * 2
            self.turn_at = millis(now)
            event["time_control"] = self.control.as_dict()
            event["left"] = [self.control.base] * 2
        self.add(event, ())

    def settle(self, now: float) -> None:
        """Ends a clocked match in play whose seat to move ran out of time, as a store does
        at a write or a reap."""
        turn = self.turn
        if (
            self.status == "playing"
            and self.control is not None
            and turn is not None
            and millis(now) - self.turn_at > self.clock[turn]
        ):
            self.finish("timeout", turn, (), now)
            self.clock[turn] = 0  # its time ran out: the match's clock reads so

    def charge(self, seat: int, event: dict[str, Any], now: float) -> None:
        """Ends a clocked turn of seat: the time it took, the increment, its event's left."""
        if self.control is None:
            return
        left = self.clock[seat] - (millis(now) - self.turn_at) + self.control.increment * 1000
        # A deadline control gives every turn its full time again.
        kept = self.control.base * 1000 if self.control.kind == "deadline" else left
        self.clock[seat], self.turn_at = kept, millis(now)
        event["left"] = left / 1000

    @property
    def correspondence(self) -> bool:
        """Whether the match has a per-move deadline (its pairing starts play at once)."""
        return self.control is not None and self.control.kind == "deadline"

    def lapsed(self, now: float) -> bool:
        """Whether a waiting match is dropped by now: its seeker silent past its patience, or
        paired and its seat 0 not polling again within the pair window."""
        if self.status != "waiting":
            return False
        unpaired = self.paired is not None and self.paired + PAIR_WINDOW < now
        return self.seen[0] + self.patience < now or unpaired

    @property
    def patience(self) -> float:
        """Polling silence a seek or a game-over move of this match waits out."""
        control = self.control
        if control is not None and control.kind == "deadline":
            return max(GRACE, float(control.base))
        return GRACE

    def __post_init__(self) -> None:
        self.seen = [self.now, self.now]
        self.since = self.now

    def add(self, event: dict[str, Any], write: tuple[Any, ...]) -> int:
        """Appends an event the store is expected to append; returns its number."""
        event["seq"] = len(self.log) + 1
        self.log.append(event)
        self.writes.append(write)
        return len(self.log)

    def finish(
        self, reason: str, seat: int, write: tuple[Any, ...], now: float, at: int | None = None
    ) -> int:
        """Ends the match as the store is expected to (a dispute names the event disputed)."""
        self.status, self.turn, self.since = "finished", None, now
        event: dict[str, Any] = {"type": "ended", "reason": reason, "seat": seat}
        if at is not None:
            event["at"] = at
        return self.add(event, write)


class StoreMachine(RuleBasedStateMachine):
    """Drives a store and its model side by side."""

    make_store: Callable[[], Awaitable[Store]]

    def __init__(self) -> None:
        super().__init__()
        COIN[0] = itertools.cycle([0, 1, 1])
        self.loop = asyncio.new_event_loop()
        self.store = self.run(type(self).make_store())
        self.now = time.time()
        self.matches: list[Model] = []
        self.forgotten: set[str] = set()
        self.accepted_moves = 0

    def run(self, call: Awaitable[T]) -> T:
        """Runs one store call to completion (bounded, so a hang fails by name)."""

        async def bounded() -> T:
            async with asyncio.timeout(10):
                return await call

        return self.loop.run_until_complete(bounded())

    def teardown(self) -> None:
        self.run(self.store.close())
        self.loop.close()

    def expect(self, call: Awaitable[T], code: str | None) -> T | None:
        """Runs a call that should succeed (code None) or fail with a RelayError code."""
        if code is None:
            return self.run(call)
        try:
            result = self.run(call)
        except RelayError as error:
            assert error.code == code, (error.code, code)
            return None
        raise AssertionError(f"expected {code}, got {result!r}")

    def live(self) -> list[Model]:
        return [m for m in self.matches if m.id not in self.forgotten]

    # -- pairing ---------------------------------------------------------------------------

    def _waiting(self, game: str) -> int:
        """Returns how many of the game's matches wait for a second seeker (a paired match,
        its seat 1 taken, waits for no one: it counts no more)."""
        return sum(
            1 for m in self.live() if m.game == game and m.status == "waiting" and m.paired is None
        )

    @initialize()
    def start(self) -> None:
        self.matches = []

    @rule(
        game=st.sampled_from(GAMES),
        room=st.sampled_from(ROOMS),
        polls_again=st.sampled_from([True, True, True, False]),
    )
    def seek(self, game: str, room: str | None, polls_again: bool) -> None:
        """Seeks; a seeker that pairs with a waiting one is answered at once, and the waiting
        seat mostly polls again at once (polls_again), starting play."""
        candidates = [
            m
            for m in self.live()
            if m.game == game
            and m.room == room
            and m.status in ("waiting", "playing", "ending")
            # A public pairing has left its waiting list; a room's match is its room's.
            and not (room is None and m.paired is not None)
        ]
        for m in candidates:
            if m.lapsed(self.now):
                m.status, m.since = "expired", self.now
        waiting = [m for m in candidates if m.status == "waiting" and m.paired is None]
        busy = [m for m in candidates if m.status in ("playing", "ending") or m.paired is not None]
        control = CONTROLS[game]
        if room is not None and busy:
            self.expect(
                self.store.matches.seek(game, "1", room, self.now, None, control), "room/full"
            )
            return
        if waiting:
            m = waiting[0]
            ticket = self.expect(
                self.store.matches.seek(game, "1", room, self.now, None, control), None
            )
            assert isinstance(ticket, Ticket)
            assert (ticket.match, ticket.seat) == (m.id, 1)
            m.tokens.append(ticket.token)
            m.seen[1] = self.now
            if m.correspondence:
                self._started(m, self._read(m.id, None))
            else:
                m.paired = self.now
                assert self._read(m.id, None) == []
                if polls_again:
                    self._poll_again(m)
            return
        if self._waiting(game) >= MODEL_SETTINGS.max_waiting:
            call = self.store.matches.seek(game, "1", room, self.now, None, control)
            self.expect(call, "limit/waiting")
            return
        ticket = self.expect(
            self.store.matches.seek(game, "1", room, self.now, None, control), None
        )
        assert isinstance(ticket, Ticket) and ticket.seat == 0
        assert ticket.match not in {m.id for m in self.matches}
        opened = Model(ticket.match, game, room, [ticket.token], self.now, control=control)
        self.matches.append(opened)

    def _started(self, m: Model, events: list[dict[str, Any]]) -> None:
        """Starts play in the model as the store did, its first mover read from the store's
        started event (the store drew it)."""
        assert [event["type"] for event in events] == ["started"]
        m.status, m.since, m.paired = "playing", self.now, None
        m.start(events[0]["first"], self.now)

    def _poll_again(self, m: Model) -> None:
        """Seat 0 of a paired match polls again: its read starts play and answers the
        started event."""
        events = self._read(m.id, m.tokens[0])
        m.seen[0] = self.now
        self._started(m, events)
        assert events == m.log

    # -- reading ---------------------------------------------------------------------------

    def _read(self, match: str, token: str | None, after: int = 0) -> list[dict[str, Any]]:
        _, events = self.run(self.store.matches.poll(match, token, after, self.now))
        return [orjson.loads(event) for event in events]

    @precondition(lambda self: self.live())
    @rule(data=st.data(), reader=st.sampled_from([0, 1, None]))
    def poll(self, data: st.DataObject, reader: int | None) -> None:
        m = data.draw(st.sampled_from(self.live()))
        if m.status == "expired":
            self.expect(self.store.matches.poll(m.id, None, 0, self.now), "match/expired")
            return
        if reader is not None and reader >= len(m.tokens):
            reader = None
        if reader == 0 and m.status == "waiting" and m.paired is not None:
            self._poll_again(m)
            return
        token = None if reader is None else m.tokens[reader]
        assert self._read(m.id, token) == m.log
        if reader is not None:
            m.seen[reader] = self.now

    # -- writing ---------------------------------------------------------------------------

    def _write_error(
        self, m: Model, seat: int, kind: str, after: int, write: tuple[Any, ...]
    ) -> tuple[str | None, int | None]:
        """Returns (expected error code, expected seq of an idempotent repeat)."""
        if m.status == "expired":
            return "match/expired", None
        if m.status == "waiting":
            return "match/not_started", None
        if 0 <= after < len(m.log):
            if m.writes[after] == write:
                return None, after + 1
            return ("match/finished" if m.status == "finished" else "turn/stale"), None
        if after != len(m.log):
            return "turn/stale", None
        if m.status == "finished":
            return "match/finished", None
        if kind == "confirm":
            if (
                m.status == "playing"
                and not write[4]
                and m.writes[-1][:2]
                in (
                    (1 - seat, "move"),
                    (1 - seat, "pass"),
                )
            ):
                return None, None
            if m.status != "ending":
                return "match/not_ending", None
            if seat == m.ender:
                return "turn/not_yours", None
            return None, None
        if m.status == "ending":
            return "match/ending", None
        if m.turn != seat:
            return "turn/not_yours", None
        return None, None

    def _seated(self, data: st.DataObject) -> tuple[Model, int]:
        m = data.draw(st.sampled_from(self.live()))
        seat = data.draw(st.sampled_from(range(len(m.tokens))))
        return m, seat

    @precondition(lambda self: self.live())
    @rule(
        data=st.data(),
        offset=st.sampled_from([0, 0, 0, 0, 0, -1, -2, 1]),
        text=TEXTS,
        end=st.sampled_from([False, False, False, True]),
        kind=st.sampled_from(["move", "move", "pass", "confirm"]),
        agree=st.booleans(),
    )
    def write(
        self, data: st.DataObject, offset: int, text: str, end: bool, kind: str, agree: bool
    ) -> None:
        m, seat = self._seated(data)
        after = len(m.log) + offset
        if kind == "move":
            action, write = Action("move", after, text, end), (seat, "move", text, end, True)
        elif kind == "pass":
            action, write = Action("pass", after), (seat, "pass", "", False, True)
        else:
            action, write = (
                Action("confirm", after, agree=agree),
                (seat, "confirm", "", False, agree),
            )
        m.settle(self.now)
        code, repeat = self._write_error(m, seat, kind, after, write)
        if m.status not in ("expired",):
            m.seen[seat] = self.now
        seq = self.expect(self.store.matches.act(m.id, m.tokens[seat], action, self.now), code)
        if code is not None:
            return
        if repeat is not None:
            assert seq == repeat
            return
        if kind == "confirm":
            if agree:
                expected = m.finish("agreed", seat, write, self.now)
            else:
                expected = m.finish("disputed", seat, write, self.now, after)
        elif kind == "pass":
            m.turn = 1 - seat
            event: dict[str, Any] = {"type": "pass", "seat": seat}
            m.charge(seat, event, self.now)
            expected = m.add(event, write)
        else:
            m.turn = 1 - seat
            if end:
                m.status, m.ender, m.since = "ending", seat, self.now
            event = {"type": "move", "seat": seat, "move": text, "end": end}
            m.charge(seat, event, self.now)
            expected = m.add(event, write)
            self.accepted_moves += 1
        assert seq == expected

    @precondition(lambda self: any(m.writes and m.writes[-1] for m in self.live()))
    @rule(data=st.data(), copies=st.integers(1, 3))
    def retry_last_write(self, data: st.DataObject, copies: int) -> None:
        """Sends the match's last write again (some copies at once): applied once."""
        m = data.draw(st.sampled_from([m for m in self.live() if m.writes and m.writes[-1]]))
        seat, kind, text, end, agree = m.writes[-1]
        after = len(m.log) - 1
        action = Action(kind, None if kind == "resign" else after, text, end, agree)
        before = len(m.log)
        m.settle(self.now)  # a late retry still finds its write, after the timeout's event

        async def at_once() -> list[int]:
            return await asyncio.gather(
                *(
                    self.store.matches.act(m.id, m.tokens[seat], action, self.now)
                    for _ in range(copies)
                )
            )

        answers = self.run(at_once())
        assert answers == [before] * copies
        m.seen[seat] = self.now

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def resign(self, data: st.DataObject) -> None:
        m, seat = self._seated(data)
        call = self.store.matches.act(m.id, m.tokens[seat], Action("resign"), self.now)
        m.settle(self.now)
        if m.status in ("waiting", "expired"):
            self.expect(call, "match/not_started" if m.status == "waiting" else "match/expired")
            if m.status == "waiting":
                m.seen[seat] = self.now
            return
        m.seen[seat] = self.now
        if m.status == "finished":
            if m.writes[-1][:2] == (seat, "resign"):
                assert self.expect(call, None) == len(m.log)
            else:
                self.expect(call, "match/finished")
            return
        expected = m.finish("resigned", seat, (seat, "resign", "", False, True), self.now)
        assert self.expect(call, None) == expected

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def cancel(self, data: st.DataObject) -> None:
        m, seat = self._seated(data)
        call = self.store.matches.act(m.id, m.tokens[seat], Action("cancel"), self.now)
        if m.status in ("waiting", "expired"):
            assert self.expect(call, None) == 0
            if m.status == "waiting":
                m.status, m.since = "expired", self.now
        else:
            self.expect(call, "match/started")
        m.seen[seat] = self.now

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def wrong_token(self, data: st.DataObject) -> None:
        m = data.draw(st.sampled_from(self.live()))
        # A rematch's seats keep their tokens: those are m's own, not wrong.
        others = [t for o in self.matches for t in o.tokens if t not in m.tokens] + ["forged"]
        token = data.draw(st.sampled_from(others))
        code = "auth/bad_token"
        self.expect(
            self.store.matches.act(m.id, token, Action("move", len(m.log), "x"), self.now), code
        )

    @precondition(lambda self: self.live())
    @rule(data=st.data(), offer=st.booleans(), over=st.sampled_from([True, True, True, False]))
    def rematch(self, data: st.DataObject, offer: bool, over: bool) -> None:
        finished = [m for m in self.live() if m.status == "finished"]
        if over and finished:  # mostly a finished match: both seats must offer to accept
            m, seat = data.draw(st.sampled_from(finished)), data.draw(st.sampled_from([0, 1]))
        else:
            m, seat = self._seated(data)
        call = self.store.rematches.step(
            m.id, m.tokens[seat], "offer" if offer else "decline", self.now
        )
        if m.status != "finished":
            code = "match/expired" if m.status == "expired" else "rematch/not_finished"
            self.expect(call, code)
            return
        r = m.rematch or {"version": 0, "state": "none", "offers": [False, False], "by": None}
        r = dict(r, offers=list(r["offers"]))
        if r["state"] == "offered" and r["at"] + GRACE < self.now:
            r = {
                "version": r["version"] + 1,
                "state": "lapsed",
                "offers": [False, False],
                "by": None,
            }
        if offer and r["state"] != "accepted" and not r["offers"][seat]:
            if r["offers"][1 - seat]:
                r = dict(r, version=r["version"] + 1, state="accepted", offers=[True, True])
            else:
                offers = [False, False]
                offers[seat] = True
                r = {"version": r["version"] + 1, "state": "offered", "offers": offers,
                     "by": None, "at": self.now}  # fmt: skip
        elif not offer:
            if r["state"] == "accepted":
                self.expect(call, "rematch/accepted")
                return
            if not (r["state"] == "declined" and r["by"] == seat):
                r = {"version": r["version"] + 1, "state": "declined", "offers": [False, False],
                     "by": seat}  # fmt: skip
        found = self.expect(call, None)
        assert found is not None
        assert (found.version, found.state, list(found.offers)) == (
            r["version"], r["state"], r["offers"],
        )  # fmt: skip
        if found.state == "accepted" and "match" not in r:
            assert m.first is not None and found.first == 1 - m.first
            assert found.match is not None
            r["match"] = found.match
            new = Model(found.match, m.game, None, list(m.tokens), self.now, status="playing")
            new.control = m.control
            new.start(1 - m.first, self.now)
            self.matches.append(new)
        elif found.state == "accepted":
            assert found.match == r["match"]
        m.rematch = r

    # -- time ------------------------------------------------------------------------------

    @rule(seconds=st.sampled_from([1.0, GRACE / 2, GRACE + 1, KEEP + 1]))
    def time_passes(self, seconds: float) -> None:
        self.now += seconds
        self.run(self.store.matches.reap(self.now))
        for m in self.live():
            if m.lapsed(self.now):
                m.status, m.since = "expired", self.now
            elif m.status == "playing":
                absent = min((0, 1), key=lambda seat: m.seen[seat])
                m.settle(self.now)  # a clock that ran out ends the match first
                if (
                    m.status == "playing"
                    and not m.correspondence
                    and m.seen[absent] + GRACE < self.now
                ):
                    m.finish("abandoned", absent, (), self.now)
            elif m.status == "ending":
                partner = 1 - m.ender
                wait = m.patience
                if m.since + wait < self.now or m.seen[partner] + wait < self.now:
                    m.finish("unconfirmed", partner, (), self.now)
            elif m.status in ("finished", "expired") and m.since + KEEP < self.now:
                self.forgotten.add(m.id)
                self.expect(self.store.matches.info(m.id), "match/unknown")

    # -- invariants ------------------------------------------------------------------------

    @invariant()
    def every_reader_sees_the_model_log(self) -> None:
        for m in self.live():
            if m.status in ("waiting", "expired"):
                continue
            spectator = self._read(m.id, None)
            assert spectator == m.log
            assert [event["seq"] for event in spectator] == list(range(1, len(m.log) + 1))
            assert self._read(m.id, None, len(m.log) - 1) == m.log[-1:]

    @invariant()
    def turn_and_status_match_the_model(self) -> None:
        for m in self.live():
            if m.status == "expired":
                continue
            info = self.run(self.store.matches.info(m.id))
            assert info.status.value == m.status
            assert info.turn == (m.turn if m.status == "playing" else None)
            assert info.last == len(m.log)
            if m.control is None:
                assert info.clock is None
            elif m.status != "waiting":
                assert info.clock is not None and info.clock.control == m.control
                assert list(info.clock.left) == m.clock and info.clock.turn_at == m.turn_at

    @invariant()
    def each_accepted_move_is_logged_once(self) -> None:
        moves = sum(1 for m in self.matches for e in m.log if e["type"] == "move")
        assert moves == self.accepted_moves


MACHINE_SETTINGS = settings(max_examples=150, stateful_step_count=50, deadline=None)
"""The memory store's: 150 cases of up to 50 steps."""
REDIS_SETTINGS = settings(MACHINE_SETTINGS, max_examples=100)
"""A Redis store's: each case opens a fresh store on a real server, so 100 cases."""


def pin_coin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pins the first-mover coin to a sequence that restarts with each machine, so that
    hypothesis replays every case exactly."""
    monkeypatch.setattr(relay.core.model, "draw_first", lambda: next(COIN[0]))

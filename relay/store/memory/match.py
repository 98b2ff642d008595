"""A match of the memory store, with its log and table, and the waits held on it: what every
write and poll of the store's parts (relay.store.memory.registry) touches."""

from __future__ import annotations

import hmac
from typing import NamedTuple

from relay.core.clock import TimeControl, millis
from relay.core.errors import RelayError
from relay.core.events import started_event
from relay.core.model import Event, Status, new_match_id
from relay.core.rated import RatingRange
from relay.store.base import Wake
from relay.store.memory.table import TableState

__all__ = [
    "ENDING", "EXPIRED", "FINISHED", "NO_WRITE", "PLAYING", "PLAYS", "TICK", "WAITING",
    "Held", "Match", "Write",
]  # fmt: skip


class Write(NamedTuple):
    """What an event records of the write that made it: a write sent again is known by it."""

    seat: int
    kind: str
    move: str
    end: bool
    agree: bool


new_write = tuple.__new__
"""Makes a Write from its five fields at once: new_write(Write, (seat, kind, move, end,
agree)), without the keyword handling of Write(...) (a move makes one)."""

NO_WRITE = Write(-1, "", "", False, False)
"""What the events a write did not make (a timeout, the reaper's ends) record."""
PLAYS = ("move", "pass")
"""The writes that hand the turn over: the seat to move may dispute the partner's last one."""

WAITING, PLAYING, ENDING, FINISHED, EXPIRED = (
    Status.WAITING, Status.PLAYING, Status.ENDING, Status.FINISHED, Status.EXPIRED
)  # fmt: skip
"""The statuses as module names, which a move compares several times (docs/performance.md)."""

TICK = 0.1
"""Seconds between the moments a held wait may time out: waits ending within the same tick
share one timer, so a wait costs no timer of its own (a timeout is up to one tick late)."""


class Held:
    """A wait held by watch(): called back when an event arrives (or, for a table-aware wait,
    the table changes), or at its timeout."""

    __slots__ = ("after", "due", "state", "tables", "wake")

    def __init__(
        self, state: Match, after: int, wake: Wake, due: set[Held], tables: bool = False
    ) -> None:
        self.state = state
        self.after = after
        self.wake: Wake | None = wake
        self.due = due
        """The set of waits that time out at the same tick as this one."""
        self.tables = tables
        """Whether a change of the match's table ends it too."""

    def fire(self) -> None:
        """Ends the wait, calling its wake with what the match has for it now."""
        wake = self.wake
        if wake is None:
            return
        self.wake = None
        self.due.discard(self)
        state = self.state
        if state.status is EXPIRED:
            wake(None, 0)
        else:
            wake(state.events[self.after :], state.table.version)

    def cancel(self) -> None:
        """Ends the wait without calling its wake (its client went away)."""
        self.wake = None
        self.due.discard(self)


class Match:
    """One match and its log; only MemoryStore touches it."""

    __slots__ = (
        "casual",
        "claim",
        "clock",
        "contacts",
        "control",
        "detail",
        "done",
        "ender",
        "events",
        "first",
        "game",
        "hashes",
        "id",
        "move_bytes",
        "paired",
        "players",
        "rating_range",
        "room",
        "seen",
        "since",
        "status",
        "table",
        "turn",
        "turn_at",
        "version",
        "waiters",
    )

    def __init__(
        self, game: str, version: str, room: str | None, now: float, control: TimeControl | None
    ) -> None:
        self.id = new_match_id()
        self.control = control
        full = 0 if control is None else control.base * 1000
        self.clock = [full, full]
        """Each seat's milliseconds left when its turn last started or ended."""
        self.turn_at = 0
        """When the current turn started (ms since the epoch)."""
        self.table = TableState()
        self.game = game
        self.version = version
        self.room = room
        self.status = WAITING
        self.hashes: list[str] = ["", ""]
        self.players: list[str] = ["", ""]
        """Each seat's player key digest ('' for none)."""
        self.contacts: list[str | None] = [None, None]
        """Each seat's contact handle, for its turn notices."""
        self.seen: list[float] = [now, now]
        self.since = now
        self.events: list[Event] = []
        self.move_bytes = 0
        """Bytes of move text in the log, each move as a JSON string (max_log_bytes)."""
        self.done: list[Write] = []
        self.turn: int | None = None
        self.first: int | None = None
        self.ender = -1
        self.rating_range: RatingRange | None = None
        """The waiting seeker's rating range (None: any opponent)."""
        self.claim: str | None = None
        """The game-ending move's claim, if its mover made one (rated once agreed)."""
        self.detail = b""
        """The game-ending move's words as the tail of its agreed or unconfirmed `ended`
        event (said_tail), b'' when it gave none."""
        self.paired: tuple[float, int] | None = None
        """When a second seeker took seat 1 of the waiting match, and the first mover drawn
        then: the match starts once seat 0 polls again (StoreSettings.pair_window)."""
        self.waiters: list[Held] = []
        self.casual = False
        """Never rated, whatever its result (a challenge made with rated: false)."""

    def seat_of(self, digest: str) -> int:
        """Returns the seat of a token's digest (a seat token's, or a player key's: a second
        key to the seats it took); raises auth/bad_token for neither."""
        zero = hmac.compare_digest(digest, self.hashes[0])
        one = hmac.compare_digest(digest, self.hashes[1])
        if zero:
            return 0
        if one:
            return 1
        players = self.players
        if players[0] and hmac.compare_digest(digest, players[0]):
            return 0
        if players[1] and hmac.compare_digest(digest, players[1]):
            return 1
        raise RelayError("auth/bad_token")

    def start(self, first: int, now: float) -> None:
        """Opens play: the turn to first, both clocks full, the first turn starting now."""
        self.status = PLAYING
        self.first = self.turn = first
        control = self.control
        self.turn_at = millis(now)
        if control is not None:
            self.clock = [control.base * 1000, control.base * 1000]
        self.append(started_event(1, first, control), NO_WRITE)

    def is_correspondence(self) -> bool:
        """Whether the match has a per-move deadline control (it never ends for want of
        polls)."""
        control = self.control
        return control is not None and control.kind == "deadline"

    def is_out(self, now: float) -> bool:
        """Whether the seat to move of a clocked match in play has run out of time (used more
        than it had: the Redis reaper looks at a match once its deadline is past)."""
        turn = self.turn
        return turn is not None and millis(now) - self.turn_at > self.clock[turn]

    def charge(self, seat: int, now: float) -> int:
        """Ends the turn of seat (its time not out) and returns its milliseconds left."""
        control = self.control
        assert control is not None
        at = millis(now)
        left = self.clock[seat] - (at - self.turn_at)
        if control.kind == "fischer":
            left += control.increment * 1000
            self.clock[seat] = left
        else:
            self.clock[seat] = control.base * 1000
        self.turn_at = at
        return left

    def rewind(self, asker: int, now: float) -> tuple[int, int] | None:
        """Gives the turn back to asker for an accepted takeback: the seat to move is charged
        its time so far (no increment), and asker's turn starts now (a deadline control
        gives it its full time). Returns each seat's milliseconds left, with a clock."""
        at = millis(now)
        control = self.control
        if control is not None and self.turn is not None:
            if control.kind == "fischer":
                self.clock[self.turn] -= at - self.turn_at
            else:
                self.clock[asker] = control.base * 1000
        self.turn = asker
        self.turn_at = at
        return None if control is None else (self.clock[0], self.clock[1])

    def append(self, event: Event, done: Write) -> int:
        """Adds an event to the log and wakes every poll waiting for it, there and then."""
        self.events.append(event)
        self.done.append(done)
        if self.waiters:
            self.wake_all()
        return len(self.events)

    def wake_all(self) -> None:
        """Ends every wait held on this match."""
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            waiter.fire()

    def wake_tables(self) -> None:
        """Ends the table-aware waits held on this match (its table changed)."""
        fired = [waiter for waiter in self.waiters if waiter.tables]
        if fired:
            self.waiters = [waiter for waiter in self.waiters if not waiter.tables]
            for waiter in fired:
                waiter.fire()

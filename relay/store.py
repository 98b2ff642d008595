"""The store interface: the one source of truth for matches and their event logs."""

from __future__ import annotations

import hashlib
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

import orjson

from relay.clock import Clock, TimeControl, left_text
from relay.errors import RelayError
from relay.turns import TurnSink

if TYPE_CHECKING:
    from relay.lobby import Lobby, LobbyKind
    from relay.players import PlayerMatch
    from relay.rematch import Rematch, RematchOp

__all__ = [
    "ID_FIRST",
    "Action",
    "ActionKind",
    "Event",
    "Immediate",
    "MatchInfo",
    "Status",
    "Store",
    "StoreSettings",
    "Ticket",
    "Wake",
    "behind",
    "control_mismatch",
    "draw_first",
    "finished",
    "hash_token",
    "new_action",
    "new_match_id",
    "new_token",
]

Seat = int
"""A seat of a match: 0 (the first seeker) or 1 (the second)."""

Event = bytes
"""One event of a match's log, as the JSON object text sent on the wire, built by formatting
(docs/performance.md says why not with orjson.dumps)."""

ActionKind = Literal["move", "pass", "resign", "confirm", "cancel"]
"""What a seat can do to a match."""


class Status(StrEnum):
    """The life of a match."""

    WAITING = "waiting"
    """One seat taken; waiting for a second seeker."""
    PLAYING = "playing"
    """Both seats taken; the seat whose turn it is may move or pass."""
    ENDING = "ending"
    """A move ended the game; the partner is to agree or dispute."""
    FINISHED = "finished"
    """Over; the log ends with an 'ended' event. Readable until it expires."""
    EXPIRED = "expired"
    """A seek that was cancelled or dropped before anyone joined."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """The answer to a seek: the match, the seat taken and its secret token."""

    match: str
    seat: Seat
    token: str


class Action(NamedTuple):
    """A write by a seat: a move, a pass, a resignation, a confirm of game over, a cancel."""

    kind: ActionKind
    after: int | None = None
    move: str = ""
    end: bool = False
    agree: bool = True


new_action = tuple.__new__
"""Makes an Action from all five fields at once: new_action(Action, (kind, after, move, end,
agree)), as a move's Action is made (docs/performance.md)."""


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A summary of one match, for spectators and resuming clients."""

    match: str
    game: str
    version: str
    room: str | None
    status: Status
    turn: Seat | None
    last: int
    first: Seat | None
    clock: Clock | None = None
    """The match's time control and clocks; None for a match without one."""


@dataclass(frozen=True, slots=True)
class StoreSettings:
    """The timings and capacity a store enforces, the same in every relay process."""

    grace: float = 60.0
    """Seconds a seat may go without polling before it abandons (or its seek is dropped)."""
    keep: float = 3600.0
    """Seconds a finished or expired match stays readable before it is forgotten."""
    max_waiting: int = 1000
    """Matches that may wait for a second player, per game key."""
    lobby_size: int = 50
    """Entries each lobby list keeps, per game (the newest)."""
    max_events: int = 10_000
    """Events a match's log may hold before moves and passes are refused (match/too_long);
    the seats can still resign or settle a game-over move, so every match can end."""


Wake = Callable[[list[Event] | None], None]
"""Called once when a watched wait ends: with the events above its cursor (empty when its
time ran out or the relay is closing), or None when the match expired meanwhile."""


class Immediate(Protocol):
    """What a store that needs no waiting to read or write (the memory store) offers besides
    Store: a move applied and its reply awaited through callbacks, with no coroutine."""

    def act_hashed(self, match: str, digest: str, action: Action, now: float) -> int:
        """Store.act, at once, for a token already hashed (hash_token)."""

    def watch(self, match: str, after: int, timeout: float, wake: Wake) -> Any:
        """Calls wake with the events above after once there are any, or with [] after
        timeout: at once (returning None) when there are some already, else later (returning
        the wait, whose cancel() ends it without calling wake)."""


class Store(Protocol):
    """Holds every match; every relay process sharing a store may answer any request."""

    turns: TurnSink | None
    """Told of each turn given to a seat with a contact in a per-move-deadline match (see
    relay.turns); None (the default) tells nobody."""

    immediate: Immediate | None
    """The store itself when it can answer at once (its coroutines then also finish at once,
    or wait on plain futures only, and need no task); None for a store that waits on I/O."""

    @property
    def notices(self) -> int:
        """Notices of new events this process heard from a shared store (0 for a store of
        one process): with the Redis store, one per event per process waiting on its match."""

    async def seek(
        self,
        game: str,
        version: str,
        room: str | None,
        now: float,
        token: str | None = None,
        control: TimeControl | None = None,
        player: str | None = None,
        contact: str | None = None,
    ) -> Ticket:
        """Joins the oldest compatible waiting match, or opens a new one, and returns the seat.

        Only seekers of the same time control (or both of none) are paired. With a token (the
        seeker's own, random), the seat gets that token, and the same seek repeated within the
        grace period returns the same ticket instead of a second seat. With a player key, the
        key is a second key to the seat, the seat is listed under it (player_matches), and a
        seek never joins a seek of the same key (in a room: room/same_player); a key with
        relay.players.LISTED matches not finished is refused (player/too_many). A contact is
        kept for the seat's turn notices (see turns)."""

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[Seat | None, list[Event]]:
        """Returns the reader's seat (None for a spectator) and the events numbered above after.

        A seat's poll also marks it present (see reap)."""

    async def wait(self, match: str, after: int, timeout: float) -> list[Event]:
        """Returns the events numbered above after once there are any, or [] after timeout."""

    async def player_matches(self, player: str, now: float) -> list[PlayerMatch]:
        """Returns every match the player key seated that the store still holds (but
        cancelled or dropped seeks), in no order; [] for a key it does not know."""

    async def act(self, match: str, token: str, action: Action, now: float) -> int:
        """Applies a seat's action once and returns the number of its event."""

    async def info(self, match: str) -> MatchInfo:
        """Returns a summary of the match."""

    async def rematch(self, match: str, token: str | None, op: RematchOp, now: float) -> Rematch:
        """Reads the rematch of a match (any reader; a token, if given, must be a seat's), or
        has the token's seat offer or decline one (relay.rematch.step). When both seats
        offered, the new match exists by the time this returns."""

    async def rematch_wait(self, match: str, after: int, timeout: float, now: float) -> Rematch:
        """Returns the rematch once its version is above after, or as it is after timeout."""

    async def lobby_add(self, game: str, kind: LobbyKind, match: str, now: float) -> None:
        """Lists a match in a game's lobby (newest first, at most lobby_size per kind)."""

    async def lobby_promote(self, game: str, match: str, now: float) -> None:
        """Moves a match from the game's open list to its live list, if it is listed."""

    async def lobby(self, game: str) -> Lobby:
        """Reads a game's lobby, dropping or moving entries whose match changed."""

    async def lobby_wait(self, game: str, after: int, timeout: float) -> None:
        """Returns once the game's lobby version may be above after, or after timeout."""

    async def reap(self, now: float) -> int:
        """Ends matches whose seats stopped polling or ran out of time, drops stale seeks,
        forgets old matches. A match with a per-move deadline control never ends for want of
        polls: only its clock ends it; its seek and a game-over move wait out
        relay.players.patience, not just the grace period.

        Returns how many matches it changed."""

    async def counts(self) -> dict[Status, int]:
        """Returns how many matches are in each status."""

    async def endings(self) -> dict[str, int]:
        """Returns how many matches the store has ended since it began, by the `ended`
        event's reason (resigned, timeout...): every process's together on a shared store."""

    async def wake_all(self) -> None:
        """Answers every wait held in this process at once (used at shutdown)."""

    async def close(self) -> None:
        """Releases the store's connections."""


def draw_first() -> Seat:
    """Returns the seat that moves first: a fair coin from the system's random source."""
    return secrets.randbelow(2)


ID_FIRST = string.ascii_uppercase + string.ascii_lowercase + string.digits + "_"
"""The characters a match id may begin with: URL-safe base64 but '-', so that an id never
reads as an option on a command line (`--replay ID`)."""


def new_match_id(first: str | None = None) -> str:
    """Returns a fresh, unguessable match id (16 URL-safe characters, about 95 random bits),
    beginning with `first` if given (one of ID_FIRST)."""
    return (first or secrets.choice(ID_FIRST)) + secrets.token_urlsafe(12)[1:]


def new_token() -> str:
    """Returns a fresh seat token (256 random bits)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Returns the digest a store keeps in place of a token (tokens are never stored)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def too_long(most: int) -> RelayError:
    """Returns the error refusing a move or pass to a match whose log is full."""
    return RelayError(
        "match/too_long",
        f"The match has {most} events, the most the relay keeps: no more moves or passes; "
        "a seat can still resign.",
    )


def control_mismatch(
    room: str, waiting: TimeControl | None, sought: TimeControl | None
) -> RelayError:
    """Returns the error refusing a room seek whose time control is not the waiting one's."""

    def name(control: TimeControl | None) -> str:
        return "no clock" if control is None else control.json().decode()

    return RelayError(
        "room/control_mismatch",
        f"Room {room!r} waits for a match with {name(waiting)}, not {name(sought)}.",
    )


TIMED_OUT = (
    "The seat to move ran out of time before this write arrived: the match ended, reason 'timeout'."
)
"""The message refusing a write to a match that its clock ended at that write."""


def finished(timed_out: bool = False) -> RelayError:
    """Returns the error refusing a write to a finished match (one that this very write found
    out of time says so)."""
    return RelayError("match/finished", TIMED_OUT if timed_out else "")


def behind(after: int, last: int) -> RelayError:
    """Returns the error of a read past the log's end: the log lost events its reader saw."""
    return RelayError(
        "match/behind",
        f"'after' is {after} but the match's log ends at event {last}: events were lost by "
        "the store; read from there and post your last move again.",
    )


def started_event(seq: int, first: Seat, control: TimeControl | None = None) -> Event:
    """Returns the event that opens play, giving the turn to `first`; with a time control,
    it names the control and each seat's starting seconds."""
    if control is None:
        return b'{"seq":%d,"type":"started","first":%d}' % (seq, first)
    start = left_text(control.base * 1000)
    return b'{"seq":%d,"type":"started","first":%d,"time_control":%b,"left":[%b,%b]}' % (
        seq, first, control.json(), start, start,
    )  # fmt: skip


def move_event(seq: int, seat: Seat, move: str, end: bool, left: int | None = None) -> Event:
    """Returns the event carrying a seat's move, byte-exact; with a clock, the milliseconds
    the mover has left after it."""
    if left is None:
        return b'{"seq":%d,"type":"move","seat":%d,"move":%b,"end":%b}' % (
            seq, seat, orjson.dumps(move), b"true" if end else b"false",
        )  # fmt: skip
    return b'{"seq":%d,"type":"move","seat":%d,"move":%b,"end":%b,"left":%b}' % (
        seq, seat, orjson.dumps(move), b"true" if end else b"false", left_text(left),
    )  # fmt: skip


def pass_event(seq: int, seat: Seat, left: int | None = None) -> Event:
    """Returns the event of a seat passing its turn (with a clock, the time it has left)."""
    if left is None:
        return b'{"seq":%d,"type":"pass","seat":%d}' % (seq, seat)
    return b'{"seq":%d,"type":"pass","seat":%d,"left":%b}' % (seq, seat, left_text(left))


def ended_event(seq: int, reason: str, seat: Seat) -> Event:
    """Returns the last event of a match: why it ended and which seat that is about."""
    return b'{"seq":%d,"type":"ended","reason":%b,"seat":%d}' % (seq, orjson.dumps(reason), seat)

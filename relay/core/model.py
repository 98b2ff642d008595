"""The relay's data model: seats, events, matches, actions, ids and tokens, and the errors
that refuse a write, shared by every store and the protocol's endpoints."""

from __future__ import annotations

import hashlib
import secrets
import string
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NamedTuple

from relay.core.clock import Clock, TimeControl
from relay.core.errors import RelayError
from relay.core.rated import DEFAULT_RULES, RatingRules
from relay.core.verdicts import Ending

__all__ = [
    "ID_FIRST",
    "TIMED_OUT",
    "Action",
    "ActionKind",
    "Event",
    "MatchInfo",
    "Seat",
    "Status",
    "StoreSettings",
    "Ticket",
    "behind",
    "control_mismatch",
    "draw_first",
    "finished",
    "hash_token",
    "new_action",
    "new_match_id",
    "new_token",
    "too_long",
    "too_many_bytes",
]

Seat = int
"""A seat of a match: 0 (the first seeker) or 1 (the second)."""

Event = bytes
"""One event of a match's log, as the JSON object text sent on the wire, built by formatting
(docs/performance.md says why not with orjson.dumps)."""

ActionKind = Literal["move", "pass", "resign", "confirm", "cancel", "accept", "claim"]
"""What a seat can do to a match: besides play, accept the partner's standing draw offer or
takeback request (relay.core.table), or claim the win from a partner who stalls."""


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
    """A move's text; a dispute's reason ('' for none)."""
    end: bool = False
    agree: bool = True
    ending: Ending | None = None
    """A confirm's verdict, when a referee judged the play it confirms or disputes: the
    `ended` event it writes in place of 'agreed' or 'disputed' (relay.core.verdicts)."""
    claim: str | None = None
    """A game-ending move's claim: what the mover says it ended in for itself ('win',
    'draw', 'loss'; relay.core.rated.Claim), rated once the partner agrees."""
    detail: str = ""
    """A game-ending move's words: how its game says it ended ('' for none), the `detail` of
    the `ended` event of an agreed or unconfirmed end."""


new_action = tuple.__new__
"""Makes an Action from all eight fields at once: new_action(Action, (kind, after, move, end,
agree, ending, claim, detail)), as a move's Action is made (docs/performance.md)."""


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
    names: tuple[str | None, str | None] = (None, None)
    """Each seat's display name, as its seek gave it (None: none given)."""
    rated: bool | str = False
    """Whether the match was rated: True, False, 'pending' (ended, its rating not yet
    written; docs/ratings.md) or 'voided' (a host took its rating back)."""
    ratings: tuple[tuple[float, float], tuple[float, float]] | None = None
    """Once rated, each seat's rating before and after the match."""
    keys: tuple[str, str] = ("", "")
    """Each seat's player key's digest ('' for none): answered only as public ids
    (relay.core.standings.seat_id), made where they are answered."""


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
    hold: float = 6.0
    """The longest a poll is held (--hold): a seat that began no poll for this long and
    AWAY seconds more holds none, and is away."""
    seek_grace: float = 5.0
    """Seconds a seeker (without a per-move deadline) may go without a poll held once its
    last one ended with its client gone, or once it began no poll for hold + this long,
    before its seek is dropped and never paired."""
    pair_window: float = 3.0
    """Seconds a paired match waits for its waiting seat to poll again before it starts: a
    seat that does not (its browser crashed, its network died) is a ghost, and the match
    expires unstarted. The partner's seek is its own proof of life."""
    claim_after: float = 300.0
    """Seconds the seat to move of a match without a clock may think before its partner may
    claim the win (0: never)."""
    max_events: int = 10_000
    """Events a match's log may hold before moves and passes are refused (match/too_long);
    the seats can still resign or settle a game-over move, so every match can end."""
    chat_per_minute: int = 20
    """Chat lines one seat may post a minute in a match, in bursts of as many (the relay's
    --chat-per-minute), counted in the store: across processes and workers."""
    offers_per_minute: int = 10
    """Draw offers, takeback requests and their withdrawals one seat may make a minute in a
    match, in bursts of as many, counted in the store (each wakes every reader of the
    table)."""
    name_hold: float = 30 * 86400.0
    """Seconds a display name's look stays bound to the player key that last showed it: no
    other key may show a name confusable with it meanwhile (relay.core.text_policy)."""
    max_log_bytes: int = 262_144
    """Bytes of move text (each move as the log writes it, a JSON string) a match's log may
    hold before a move that would pass them is refused (match/too_long): with max_events, what
    a referee reads of a match is bounded in bytes as well as in events."""
    ratings: RatingRules | None = DEFAULT_RULES
    """Which results are rated (--rate-timeouts, --rate-abandoned); None: no ratings at all
    (--no-ratings)."""


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


def too_many_bytes(most: int) -> RelayError:
    """Returns the error refusing a move that would take a match's moves past `most` bytes of
    text (StoreSettings.max_log_bytes)."""
    return RelayError(
        "match/too_long",
        f"This move would take the match's moves past {most} bytes of text, the most the "
        "relay keeps: a move that fits, a pass or a resignation is still taken.",
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

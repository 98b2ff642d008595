"""The table around a match: who sits there and whether they are here, their names, their
chat, and the draw offers and takebacks they negotiate, the same for every game.

The relay still never reads a move. A table is a small record beside the match's log,
versioned like a rematch: a change (a seat away or back, a chat line, an offer and its
answer) raises its version, and a poll of the events that names the version it has is
woken by it too. What changes the game itself goes into the log as an event: an accepted
draw ends the match (`ended`, reason `drawn`), an accepted takeback appends an `undo`, and a
claim against a staller ends it (`ended`, reason `stalled`).

Presence comes from the polls the seats hold anyway: a seat that holds a poll has a lease
on the table until the poll's longest end; a seat whose last held poll ended with its client
gone, and that holds none for AWAY seconds, is away; its next poll brings it back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import orjson

from relay.core.clock import left_text
from relay.core.errors import RelayError

__all__ = [
    "AWAY",
    "CHAT_MOST",
    "NAME_MOST",
    "ChatLine",
    "Offer",
    "OfferKind",
    "OfferState",
    "Table",
    "not_stalled",
    "settle",
    "table_body",
    "takeback_count",
    "undo_event",
]

AWAY = 3.0
"""Seconds a seat may hold no poll after its last one ended with its client gone (a tab
closed, a reload) before it is shown away: a reload comes back well within it."""

NAME_MOST = 32
"""Characters a display name may have, once trimmed."""

CHAT_MOST = 300
"""Characters a chat line may have, once trimmed."""

CHAT_KEEP = 200
"""Chat lines a match keeps (and a record holds); a line past it is refused."""

CHAT_SAME = 10.0
"""Seconds within which the same seat saying the same text at the same position is taken for
the same line sent again (its answer was lost): answered, not repeated."""

OfferKind = Literal["draw", "takeback"]
"""What a seat may offer its partner during play."""

OfferState = Literal["offered", "accepted", "declined", "withdrawn", "lapsed"]
"""Where the last offer stands: made and standing; accepted (its event is in the log);
declined by the partner; withdrawn by the offerer; lapsed as the log moved on."""


@dataclass(frozen=True, slots=True)
class Offer:
    """The last draw offer or takeback request of a match, and where it stands."""

    kind: OfferKind
    by: int
    """The seat that made it."""
    at: int
    """The match's last event when it was made: it stands while the log still ends there."""
    state: OfferState = "offered"
    count: int = 0
    """For a takeback, the moves and passes it takes back (1, or 2 with the partner's reply)."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of a match's chat."""

    n: int
    """Its number in the chat, from 1."""
    seat: int
    text: str
    at: int
    """The match's last event when it was said."""
    time: float
    """When it was said (seconds since the epoch)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A match's table as a store reads it."""

    version: int
    names: tuple[str | None, str | None] = (None, None)
    away: tuple[float | None, float | None] = (None, None)
    """Since when each seat is away (None: here)."""
    abandon_at: tuple[float | None, float | None] = (None, None)
    """When each away seat abandons, unless it comes back (None: never, or here)."""
    offer: Offer | None = None
    chat: tuple[ChatLine, ...] = ()
    """The lines above the reader's chat cursor (all of them by default)."""
    claim_at: float | None = None
    """When the partner of the seat to move may claim the win from a staller (None: not in
    this match or not now)."""
    claim_after: float | None = None
    """The relay's claim time, for a match without a clock while claims are on (None: no claim
    in this match): a client counts each turn's claim time from it, with no read of its own."""


def takeback_count(seat: int, turn: int | None, plies: int) -> int:
    """Returns how many moves and passes a takeback asked by seat undoes: its own last one,
    and the partner's reply if there is one (it is then seat's turn); raises takeback/none
    when there are not that many since the start."""
    count = 2 if turn == seat else 1
    if plies < count:
        raise RelayError("takeback/none")
    return count


def undo_event(seq: int, seat: int, count: int, left: tuple[int, int] | None = None) -> bytes:
    """Returns the event of an accepted takeback: seat (the asker) has the turn again once
    the last `count` moves and passes are undone; with a clock, each seat's time left."""
    if left is None:
        return b'{"seq":%d,"type":"undo","seat":%d,"count":%d}' % (seq, seat, count)
    return b'{"seq":%d,"type":"undo","seat":%d,"count":%d,"left":[%b,%b]}' % (
        seq, seat, count, left_text(left[0]), left_text(left[1]),
    )  # fmt: skip


def not_stalled(wait: float | None, yours: bool) -> RelayError:
    """Returns the error refusing a claim: it is the claimer's own turn, the match has no
    claim now (wait None: a clock, or not in play), or the claim time is `wait` s away."""
    if yours:
        message = "It is your turn: a claim is against a partner that stalls on its own turn."
    elif wait is None:
        message = "No claim in this match now: it has a clock, or is not being played."
    else:
        message = f"The partner has thought for less than the claim time: claim in {wait:.0f} s."
    return RelayError("claim/not_stalled", message)


def settle(offer: Offer | None, last: int, playing: bool) -> Offer | None:
    """Returns the offer as it stands once the log ends at `last`: a standing offer made at
    another position, or in a match no longer in play, has lapsed."""
    if offer is not None and offer.state == "offered" and (offer.at != last or not playing):
        return Offer(offer.kind, offer.by, offer.at, "lapsed", offer.count)
    return offer


def table_body(table: Table, now: float, names: bool = True, chat: bool = True) -> bytes:
    """Returns the JSON answer describing a table (names and chat left out when the host
    turned them off, or the reader may not read the chat)."""
    offer = table.offer
    presence: list[dict[str, object]] = []
    for seat in (0, 1):
        since = table.away[seat]
        if since is None:
            presence.append({"here": True})
        else:
            due = table.abandon_at[seat]
            presence.append(
                {
                    "here": False,
                    "since": since,
                    "abandon_in": None if due is None else max(0.0, round(due - now, 1)),
                }
            )
    answer: dict[str, object] = {
        "version": table.version,
        "names": list(table.names) if names else [None, None],
        "presence": presence,
        "offer": None
        if offer is None
        else {
            "kind": offer.kind,
            "by": offer.by,
            "at": offer.at,
            "state": offer.state,
            "count": offer.count if offer.kind == "takeback" else None,
        },
        "chat": [
            {"n": line.n, "seat": line.seat, "text": line.text, "at": line.at, "time": line.time}
            for line in table.chat
        ]
        if chat
        else [],
        "claim_in": None if table.claim_at is None else max(0.0, round(table.claim_at - now, 1)),
        "claim_after": table.claim_after,
    }
    return orjson.dumps(answer)

"""How a match ended, beyond a reason and a seat: the event at fault, the words that say why,
and, when a referee decided, the winner (docs/protocol.md#verdicts).

An `ended` event names its `reason` and `seat`; a dispute adds `at` (the event disputed) and,
when the disputing client gave one, `detail` (its reason); a referee's verdict adds `winner`
(a seat, or null for a draw) as well. An agreed or unconfirmed end adds `detail` when the
game-ending move gave its game's words for how it ended. Every store writes these fields the
same way, after the reason and the seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from relay.core.reasons import Reason

__all__ = [
    "DETAIL_MAX",
    "DISPUTED",
    "ILLEGAL",
    "OVER",
    "Ending",
    "cut_detail",
    "dispute_tail",
    "result_of",
    "said_tail",
]

DETAIL_MAX = 200
"""Characters a verdict's or a dispute's reason may have (a referee's longer one is cut)."""

OVER, ILLEGAL, DISPUTED = Reason.OVER, Reason.ILLEGAL, Reason.DISPUTED
"""The `ended` reasons a verdict writes: the game ended there; a seat broke the rules; the
referee found the disputed play legal (the disputer loses)."""


@dataclass(frozen=True, slots=True)
class Ending:
    """The `ended` event a verdict writes: its reason and seat, and the fields after them."""

    reason: str
    seat: int
    """The seat the reason is about: the ender (over), the offender (illegal), the disputer."""
    winner: int | None
    """The winning seat, or None for a draw."""
    at: int
    """The event at fault, or the one that ended the game."""
    detail: str
    """The referee's words (cut to DETAIL_MAX)."""

    def tail(self) -> bytes:
        """Returns the event's fields after its seat, as JSON text: ',"winner":…,"at":…,…'."""
        winner = b"null" if self.winner is None else b"%d" % self.winner
        return b',"winner":%b,"at":%d,"detail":%b' % (winner, self.at, orjson.dumps(self.detail))


def dispute_tail(at: int, detail: str) -> bytes:
    """Returns the fields a dispute without a referee adds after its seat: the event disputed,
    and the disputing client's reason when it gave one."""
    if not detail:
        return b',"at":%d' % at
    return b',"at":%d,"detail":%b' % (at, orjson.dumps(detail))


def said_tail(detail: str) -> bytes:
    """Returns the field an agreed or unconfirmed end adds after its seat: the game-ending
    move's words, when it gave some (b'' when not)."""
    return b',"detail":%b' % orjson.dumps(detail) if detail else b""


def cut_detail(text: str) -> str:
    """Returns a referee's reason as an event carries it: at most DETAIL_MAX characters."""
    return text if len(text) <= DETAIL_MAX else text[: DETAIL_MAX - 1] + "…"


RESULT_FIELDS = ("reason", "seat", "winner", "at", "detail")
"""The fields of an `ended` event a result carries, in order, each when the event has it."""


CLAIMED = frozenset({Reason.AGREED, Reason.UNCONFIRMED})
"""The reasons whose result hangs on the game-ending move's claim: who won an agreed end (or
says it won an unconfirmed one) is what its mover claimed."""


def result_of(ended: dict[str, Any], claim: str | None = None) -> dict[str, Any]:
    """Returns the result a record's header or a player's match list shows for an `ended`
    event: its reason and seat, and its winner, at and detail when it has them; for an agreed
    or unconfirmed end, `claim`, the game-ending move's (what its mover said it ended in)."""
    result = {name: ended[name] for name in RESULT_FIELDS if name in ended}
    if claim and ended.get("reason") in CLAIMED:
        result["claim"] = claim
    return result

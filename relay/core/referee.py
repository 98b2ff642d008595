"""A game's referee as the relay sees it: the plays it is given, the verdicts it reads back (by
their `kind` and fields), and the `ended` event each verdict makes (docs/protocol.md#verdicts).

The relay never imports the SDK: `Play` here is field for field the SDK's `sdk.referee.Play`,
and a referee's verdicts are read through the protocols below, which the SDK's `Legal`,
`Illegal` and `Over` satisfy. A verdict of any other shape raises WrongVerdict, and the relay
then handles the match as it handles a game without a referee."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from relay.core.model import Event
from relay.core.verdicts import DISPUTED, ILLEGAL, OVER, Ending, cut_detail

__all__ = [
    "GAME_WAS_OVER",
    "NOT_OVER",
    "IllegalVerdict",
    "LegalVerdict",
    "OverVerdict",
    "Play",
    "Referee",
    "WrongVerdict",
    "dispute_ending",
    "end_ending",
    "plays_of",
    "read_verdict",
    "turn_after",
]

NOT_OVER = "the game is not over"
"""The detail of a game-ending move the referee finds legal but not ending the game."""

GAME_WAS_OVER = "the game was over"
"""The detail of a play made after the game ended."""

FOUND_LEGAL = "the referee found the {} legal and the game not over"
"""The detail of a dispute the referee does not uphold."""


@dataclass(slots=True)
class Play:
    """One move or pass of a match, as a referee reads it (the SDK's `sdk.referee.Play`, field
    for field). Not frozen: a frozen dataclass takes five times as long to make, and the relay
    makes one per play at each judgement (a referee reads them and changes none)."""

    seq: int
    """Its event number in the match's log."""
    seat: int
    """The seat (0 or 1) that played it."""
    move: str | None
    """The move text, byte-exact, or None for a pass."""
    end: bool = False
    """Whether the mover said the game is over with it."""


class LegalVerdict(Protocol):
    """Every play so far is legal, and the game is not over (kind 'legal')."""

    @property
    def kind(self) -> str: ...


class IllegalVerdict(Protocol):
    """The play at event `seq`, by `seat`, broke the rules (kind 'illegal')."""

    @property
    def kind(self) -> str: ...
    @property
    def seq(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def reason(self) -> str: ...


class OverVerdict(Protocol):
    """The play at event `seq` ended the game: `winner` won, or None for a draw (kind
    'over')."""

    @property
    def kind(self) -> str: ...
    @property
    def seq(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def reason(self) -> str: ...


class Referee(Protocol):
    """Judges a match of one game from its plays (a sequence of Play); pure and quick."""

    def judge(self, plays: Sequence[Any], /) -> object:
        """Returns a LegalVerdict, an IllegalVerdict or an OverVerdict."""
        ...


class WrongVerdict(ValueError):
    """Raised when a referee's verdict is not one the relay can read, or does not fit the
    plays it was given."""


@dataclass(frozen=True, slots=True)
class Ruling:
    """A verdict read and checked: its kind, the play it names, the seat (the offender, or
    the winner, None for a draw), and its reason."""

    kind: str
    play: Play | None
    seat: int | None
    reason: str


def plays_of(events: Sequence[Event], last: int) -> list[Play]:
    """Returns the plays that stand in a log up to event `last`: its moves and passes, less
    those each `undo` event took back."""
    plays: list[Play] = []
    # One parse of the whole log as a JSON array: a tenth of the cost of one per event.
    add = plays.append
    for event in orjson.loads(b"[%b]" % b",".join(events[:last])):
        kind = event["type"]
        if kind == "move":
            add(Play(event["seq"], event["seat"], event["move"], event["end"]))
        elif kind == "pass":
            add(Play(event["seq"], event["seat"], None))
        elif kind == "undo":
            del plays[len(plays) - int(event["count"]) :]
    return plays


def turn_after(event: Event) -> int | None:
    """Returns the seat to move after an event of a match in play: the first mover after
    `started`, the partner after a move or pass, the asker after an `undo`; None after any
    other."""
    found = orjson.loads(event)
    kind = found["type"]
    if kind == "started":
        return int(found["first"])
    if kind in ("move", "pass"):
        return 1 - int(found["seat"])
    if kind == "undo":
        return int(found["seat"])
    return None


def read_verdict(verdict: object, plays: Sequence[Play]) -> Ruling:
    """Returns a referee's verdict on plays, checked; raises WrongVerdict."""
    kind = getattr(verdict, "kind", None)
    if kind == "legal":
        return Ruling("legal", None, None, "")
    if kind not in ("illegal", "over"):
        raise WrongVerdict(f"a verdict of kind {kind!r}")
    seq, reason = getattr(verdict, "seq", None), getattr(verdict, "reason", None)
    if not isinstance(reason, str):
        raise WrongVerdict(f"a reason {reason!r}")
    play = plays[-1] if plays and plays[-1].seq == seq else None  # most often the last
    if play is None:
        play = next((p for p in plays if p.seq == seq and type(seq) is int), None)
    if play is None:
        raise WrongVerdict(f"an event {seq!r} that is not a play it was given")
    if kind == "illegal":
        seat = getattr(verdict, "seat", None)
        if seat != play.seat or type(seat) is not int:
            raise WrongVerdict(f"seat {seat!r} at event {seq}, played by seat {play.seat}")
        return Ruling("illegal", play, seat, cut_detail(reason))
    winner = getattr(verdict, "winner", -1)
    if winner not in (0, 1, None) or type(winner) is bool:
        raise WrongVerdict(f"a winner {winner!r}")
    return Ruling("over", play, winner, cut_detail(reason))


def _against(play: Play, detail: str) -> Ending:
    """Returns the ending of a match whose play broke the rules: its seat loses."""
    return Ending(ILLEGAL, play.seat, 1 - play.seat, play.seq, detail)


def _common(ruling: Ruling, plays: Sequence[Play], at: Play) -> Ending | None:
    """Returns the ending an illegal play or a game over before `at` makes, else None."""
    if ruling.kind == "illegal" and ruling.play is not None:
        return _against(ruling.play, ruling.reason)
    if ruling.kind == "over" and ruling.play is not None and ruling.play.seq < at.seq:
        # The game ended earlier: the next play is the first illegal one.
        ended = ruling.play.seq
        later = next(p for p in plays if p.seq > ended)
        return _against(later, cut_detail(f"{GAME_WAS_OVER} ({ruling.reason})"))
    return None


def _decided(ruling: Ruling, plays: Sequence[Play]) -> Ending | None:
    """Returns the ending the ruling decides on its own (an illegal play, the game over at or
    before the last play), else None."""
    at = plays[-1]
    found = _common(ruling, plays, at)
    if found is None and ruling.kind == "over":
        return Ending(OVER, at.seat, ruling.seat, at.seq, ruling.reason)
    return found


def end_ending(ruling: Ruling, plays: Sequence[Play]) -> Ending:
    """Returns the ending of a match whose last play says the game is over: the verdict on it
    (a legal play that does not end the game is a false claim, illegal)."""
    found = _decided(ruling, plays)
    return _against(plays[-1], NOT_OVER) if found is None else found


def dispute_ending(ruling: Ruling, plays: Sequence[Play]) -> Ending:
    """Returns the ending of a match whose last play the partner disputes: illegal, the game
    over there, or else the dispute is not upheld and the disputer loses."""
    found = _decided(ruling, plays)
    if found is not None:
        return found
    at = plays[-1]
    what = "pass" if at.move is None else "move"
    return Ending(DISPUTED, 1 - at.seat, at.seat, at.seq, FOUND_LEGAL.format(what))

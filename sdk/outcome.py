"""How a match ended for one side: a result, a reason and who the reason is about."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Outcome", "Reason", "Result", "verdict_words"]


class Result(StrEnum):
    """What a match meant for this side."""

    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"
    UNKNOWN = "unknown"
    """Nobody can say: the game did not tell, the end was disputed, or the match broke off."""

    def __repr__(self) -> str:
        return f"Result.{self.name}"


class Reason(StrEnum):
    """Why a match ended. The first ten are the relay's `ended` reasons."""

    AGREED = "agreed"
    """A move ended the game and the partner's game agreed."""
    DISPUTED = "disputed"
    """A game disputed the partner's move or pass (it rejected it, or the two games disagree on
    whether the game is over); with a referee, the referee found the disputed move legal and
    the disputer lost."""
    UNCONFIRMED = "unconfirmed"
    """A move ended the game and the partner neither agreed nor disputed in time."""
    RESIGNED = "resigned"
    """A side resigned."""
    ABANDONED = "abandoned"
    """A side stopped polling the relay for its grace period."""
    TIMEOUT = "timeout"
    """The side to move ran out of time on its clock."""
    DRAWN = "drawn"
    """A side offered a draw and the other accepted it."""
    STALLED = "stalled"
    """The side to move stalled (a match without a clock) and the other claimed the win."""
    OVER = "over"
    """The game's referee, run by the relay, found the game over (won, lost or drawn)."""
    ILLEGAL = "illegal"
    """The game's referee, run by the relay, found a move illegal: its player lost."""
    CANCELLED = "cancelled"
    """The seek was withdrawn (or dropped by the relay) before a partner came."""
    CONNECTION_LOST = "connection_lost"
    """The relay could not be reached for the host's whole give-up time."""
    ERROR = "error"
    """The relay refused a request that retrying cannot fix, or answered outside the protocol."""
    CLOSED = "closed"
    """This side's host was closed (RelayHost.close()): the match goes on at the relay, and the
    seat can be taken up again (RelayHost.resume) until the relay's grace period."""

    def __repr__(self) -> str:
        return f"Reason.{self.name}"


_VERDICT_WORDS = {Result.WON: "You win", Result.LOST: "You lose", Result.DRAWN: "A draw"}


def verdict_words(result: Result, how: str = "") -> str:
    """Returns who won, as this side is told it, with how in the game's own words when given
    (a referee's detail, or the game's): "You win: three in a row.", "You lose.", "A draw: the
    board is full." (a `how` that already says "a draw" is not said twice); "" for UNKNOWN."""
    head = _VERDICT_WORDS.get(result)
    if head is None:
        return ""
    how = how.strip().rstrip(".")
    if how[: len(head)].lower() == head.lower():
        how = how[len(head) :].lstrip(" :,;-")
    return f"{head}: {how}." if how else f"{head}."


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of one match, as one side sees it; `RelayHost.play()` returns it."""

    result: Result
    """Won, lost or drawn where the game or the relay says so; otherwise UNKNOWN."""
    reason: Reason
    """Why the match ended."""
    match: str | None
    """The relay's match id (None if the seek itself failed)."""
    seat: int | None
    """This side's seat, 0 or 1 (None if the seek itself failed)."""
    by: int | None = None
    """The seat the reason is about: who resigned, left, agreed, disputed or stayed silent."""
    message: str = ""
    """The dialog the host showed about the end, if any: a referee's verdict in its words
    ("You win: four in a row."), a resignation, a dispute..."""
    at: int | None = None
    """The event the end is about: the disputed or illegal move, or the move a referee found
    ending the game (None: the relay did not say)."""
    detail: str = ""
    """Why, in words: the disputing game's reason, the referee's, or for an agreed or
    unconfirmed end the game's own words for how it ended ("" for none)."""
    winner: int | None = None
    """The seat a referee found the winner (None: a draw, or no referee decided)."""
    refereed: bool = False
    """Whether the game's referee decided this end (then `result` is its verdict)."""

    @property
    def by_me(self) -> bool:
        """Returns whether the reason is about this side (it resigned, left, disputed...)."""
        return self.by is not None and self.by == self.seat

    @property
    def is_finished(self) -> bool:
        """Returns whether the match was played to an end on the relay (not cut off or refused)."""
        return self.reason not in (
            Reason.CANCELLED, Reason.CONNECTION_LOST, Reason.ERROR, Reason.CLOSED
        )  # fmt: skip

"""How an `ended` event becomes this side's Outcome, and the dialog the game cannot show itself."""

from __future__ import annotations

from collections.abc import Callable

from sdk.events import Ended
from sdk.outcome import Reason, Result

__all__ = [
    "CONNECTION_LOST",
    "DRAWN",
    "LOCAL_DISPUTE",
    "PARTNER_ABANDONED",
    "PARTNER_DISPUTED",
    "PARTNER_RESIGNED",
    "PARTNER_STALLED",
    "PARTNER_TIMEOUT",
    "PARTNER_UNCONFIRMED",
    "PASS_DISPUTE",
    "REFUSED",
    "SEEK_DROPPED",
    "SELF_ABANDONED",
    "SELF_DISPUTED",
    "SELF_STALLED",
    "SELF_TIMEOUT",
    "SELF_UNCONFIRMED",
    "UNREACHABLE",
    "ending",
]

PARTNER_RESIGNED = "Your partner resigned: you win."
PARTNER_ABANDONED = "Your partner left the match: you win."
SELF_ABANDONED = "The relay ended the match: this side stopped answering for too long."
PARTNER_TIMEOUT = "Your partner ran out of time: you win."
SELF_TIMEOUT = "You ran out of time: the match is lost."
PARTNER_DISPUTED = "Your partner's game does not accept your last move or pass: disputed."
SELF_DISPUTED = "Your partner says the game is over, but your game does not agree: disputed."
PARTNER_UNCONFIRMED = "Your partner did not confirm the end of the game in time."
SELF_UNCONFIRMED = "The match ended before this side could confirm the end of the game."
LOCAL_DISPUTE = "Your game says the game is over, but your partner's move did not end it: disputed."
PASS_DISPUTE = "Your game says your partner had a move to make, but your partner passed: disputed."
DRAWN = "The draw was agreed."
PARTNER_STALLED = "Your partner stopped moving and you claimed the win."
SELF_STALLED = "Your partner claimed the win: you took too long to move."
UNREACHABLE = "Could not reach the relay: {error}."
CONNECTION_LOST = "Lost the connection to the relay for good: {error}."
REFUSED = "The relay refused this side's request: {error}."
SEEK_DROPPED = "The seek ended before a partner came: {error}."


def ending(
    ended: Ended, seat: int, game_result: Callable[[], Result | None]
) -> tuple[Result, Reason, str | None]:
    """Returns this side's result, the reason, and the dialog to show (None: the game knows)."""
    reason = Reason(ended.reason)
    mine = ended.seat == seat
    if reason is Reason.RESIGNED:
        return (Result.LOST if mine else Result.WON), reason, None if mine else PARTNER_RESIGNED
    if reason is Reason.ABANDONED:
        if mine:
            return Result.LOST, reason, SELF_ABANDONED
        return Result.WON, reason, PARTNER_ABANDONED
    if reason is Reason.TIMEOUT:
        return (
            (Result.LOST, reason, SELF_TIMEOUT) if mine else (Result.WON, reason, PARTNER_TIMEOUT)
        )
    if reason is Reason.DRAWN:
        return Result.DRAWN, reason, DRAWN
    if reason is Reason.STALLED:
        if mine:
            return Result.LOST, reason, SELF_STALLED
        return Result.WON, reason, PARTNER_STALLED
    if reason is Reason.DISPUTED:
        return Result.UNKNOWN, reason, SELF_DISPUTED if mine else PARTNER_DISPUTED
    if reason is Reason.UNCONFIRMED:
        if mine:
            return Result.UNKNOWN, reason, SELF_UNCONFIRMED
        return game_result() or Result.UNKNOWN, reason, PARTNER_UNCONFIRMED
    return game_result() or Result.UNKNOWN, reason, None

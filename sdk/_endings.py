"""How an `ended` event becomes this side's Outcome, and the dialog the game cannot show itself."""

from __future__ import annotations

from collections.abc import Callable

from sdk.events import Ended, Moved, Passed
from sdk.outcome import Reason, Result, verdict_words

__all__ = [
    "CONNECTION_LOST",
    "DRAWN",
    "LOCAL_DISPUTE",
    "NOT_OVER",
    "PARTNER_ABANDONED",
    "PARTNER_DISPUTED",
    "PARTNER_RESIGNED",
    "PARTNER_STALLED",
    "PARTNER_TIMEOUT",
    "PARTNER_UNCONFIRMED",
    "REFUSED",
    "SEEK_DROPPED",
    "SELF_ABANDONED",
    "SELF_DISPUTED",
    "SELF_STALLED",
    "SELF_TIMEOUT",
    "SELF_UNCONFIRMED",
    "UNCLAIMED_END",
    "UNREACHABLE",
    "ending",
    "local_dispute",
    "rejected",
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
LOCAL_DISPUTE = (
    "Your game says your partner's {move} ended the game, but your partner did not say so: "
    "disputed."
)
DRAWN = "The draw was agreed."
PARTNER_STALLED = "Your partner stopped moving and you claimed the win."
SELF_STALLED = "Your partner claimed the win: you took too long to move."
UNREACHABLE = "Could not reach the relay: {error}."
CONNECTION_LOST = "Lost the connection to the relay for good: {error}."
REFUSED = "The relay refused this side's request: {error}."
SEEK_DROPPED = "The seek ended before a partner came: {error}."

NOT_OVER = "the game is not over"
"""The reason a host sends when its game does not agree that a move ended the game."""
UNCLAIMED_END = "it ends the game, but did not say so"
"""The reason a host sends when its game finds the game over after a move sent without end."""

_REJECTED_BY_ME = "Your game rejected your partner's {move}"
_REJECTED_MINE = "Your partner's game rejected your {move}"
_ILLEGAL = "The referee found {whose} {move} illegal"
_UPHELD_BY_ME = "Your game disputed your partner's {move}, but the referee found it legal"
_UPHELD_MINE = "Your partner's game disputed your {move}, but the referee found it legal"
_CLAIM_BY_ME = "Your game does not accept the result your partner claimed with its {move}"
_CLAIM_MINE = "Your partner's game does not accept the result you claimed with your {move}"
_WRONG_CLAIM = "the claimed result is wrong: "
_OVER = "The referee found the game over at {move}"
_VERDICT = {Result.WON: "You win.", Result.LOST: "You lose.", Result.DRAWN: "It is a draw."}


def _move(number: int | None, was_pass: bool) -> str:
    """Returns "move 12", "pass at move 12", or "last move" / "last pass" when unknown."""
    if number is None:
        return "last pass" if was_pass else "last move"
    return f"pass at move {number}" if was_pass else f"move {number}"


def _said(text: str, detail: str) -> str:
    return f"{text}: {detail}" if detail else text


def rejected(number: int | None, was_pass: bool, reason: str) -> str:
    """Returns the dialog of a side whose game rejected the partner's move or pass (number
    `number` of the match, None: unknown) for `reason`."""
    return _said(_REJECTED_BY_ME.format(move=_move(number, was_pass)), reason) + ". Disputed."


def local_dispute(number: int | None) -> str:
    """Returns the dialog of a side whose game finds the game over after the partner's move,
    which was not sent as ending it."""
    return LOCAL_DISPUTE.format(move=_move(number, False))


def ending(
    ended: Ended,
    seat: int,
    game_result: Callable[[], Result | None],
    about: Moved | Passed | None = None,
    number: int | None = None,
) -> tuple[Result, Reason, str | None]:
    """Returns this side's result, the reason, and the dialog to show (None: the game knows).
    A referee's verdict is always told, in its words ("You win: four in a row."), and so is an
    agreed end whose game-ending move gave its game's words ("You lose: three mills.").

    `about` is the event `ended.at` names, as this side handled it (None: unknown), and
    `number` its move number in the match (moves and passes in play, the first 1).
    """
    reason = Reason(ended.reason)
    mine = ended.seat == seat
    was_pass = isinstance(about, Passed)
    move = _move(number, was_pass)
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
    if reason is Reason.OVER:
        result = _refereed(ended, seat) if ended.refereed else game_result() or Result.UNKNOWN
        if game_result() == result:
            # The game knows who won, but only the referee's words say how: "four in a row".
            told = verdict_words(result, ended.detail) if ended.refereed else None
            return result, reason, told
        said = _said(_OVER.format(move=move.replace("last ", "the last ")), ended.detail)
        return result, reason, f"{said}. {_VERDICT.get(result, '')}".rstrip()
    if reason is Reason.ILLEGAL:
        result = _refereed(ended, seat) if ended.refereed else (Result.LOST if mine else Result.WON)
        whose = "your" if mine else "your partner's"
        said = _said(_ILLEGAL.format(whose=whose, move=move), ended.detail)
        return result, reason, f"{said}. {_VERDICT.get(result, '')}".rstrip()
    if reason is Reason.DISPUTED:
        if ended.refereed:
            result = _refereed(ended, seat)
            # The detail is the referee's ("the referee found the move legal..."): said already.
            said = (_UPHELD_BY_ME if mine else _UPHELD_MINE).format(move=move)
            return result, reason, f"{said}. {_VERDICT.get(result, '')}".rstrip()
        if ended.detail.startswith(_WRONG_CLAIM):
            why = ended.detail.removeprefix(_WRONG_CLAIM)
            said = (_CLAIM_BY_ME if mine else _CLAIM_MINE).format(move=move)
            return Result.UNKNOWN, reason, f"{said}: {why}. Disputed."
        if mine:
            if ended.detail in ("", NOT_OVER):
                return Result.UNKNOWN, reason, SELF_DISPUTED
            return Result.UNKNOWN, reason, rejected(number, was_pass, ended.detail)
        if not ended.detail:
            return Result.UNKNOWN, reason, PARTNER_DISPUTED
        said = _said(_REJECTED_MINE.format(move=move), ended.detail)
        return Result.UNKNOWN, reason, said + ". Disputed."
    if reason is Reason.UNCONFIRMED:
        if mine:
            return Result.UNKNOWN, reason, SELF_UNCONFIRMED
        return game_result() or Result.UNKNOWN, reason, PARTNER_UNCONFIRMED
    result = game_result() or Result.UNKNOWN
    if reason is Reason.AGREED and ended.detail:
        # The game knows who won; the ender's words say how, the same on both sides.
        return result, reason, verdict_words(result, ended.detail) or None
    return result, reason, None


def _refereed(ended: Ended, seat: int) -> Result:
    """Returns this side's result by a referee's winner (None: a draw)."""
    if not ended.refereed:
        return Result.UNKNOWN
    if ended.winner is None:
        return Result.DRAWN
    return Result.WON if ended.winner == seat else Result.LOST

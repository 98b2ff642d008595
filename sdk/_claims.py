"""A game-ending move's claim: the mover's own result, sent from its game and checked by the
partner's (docs/ratings.md, "Which results count")."""

from __future__ import annotations

from sdk.events import Claim
from sdk.outcome import Result

__all__ = ["WRONG_CLAIM", "check_claim", "claim_of"]

WRONG_CLAIM = (
    "the claimed result is wrong: the mover claimed {claimed}, its partner's game finds {found}"
)
"""The reason a host disputes with when its game's result is not the mirror of the claim (both
results said as the mover's: the reason reaches both sides and the record)."""

_CLAIMS: dict[Result, Claim] = {Result.WON: "win", Result.DRAWN: "draw", Result.LOST: "loss"}
_MIRROR: dict[Claim, Result] = {"win": Result.LOST, "draw": Result.DRAWN, "loss": Result.WON}
_WORDS: dict[Claim, str] = {"win": "a win", "draw": "a draw", "loss": "a loss"}
_FOUND: dict[Result, str] = {Result.WON: "a loss", Result.LOST: "a win", Result.DRAWN: "a draw"}
"""What this side's result is, said as the mover's."""


def claim_of(result: Result | None) -> Claim | None:
    """Returns the claim a mover sends for its game's result (None: its game cannot tell)."""
    return None if result is None else _CLAIMS.get(result)


def check_claim(claim: Claim | None, found: Result | None) -> str:
    """Returns the reason to dispute the partner's claim for (""): its mirror is not what this
    side's game finds. A game that cannot tell (None, UNKNOWN) finds nothing wrong."""
    if claim is None or found is None or found is Result.UNKNOWN:
        return ""
    if _MIRROR[claim] is found:
        return ""
    return WRONG_CLAIM.format(claimed=_WORDS[claim], found=_FOUND[found])

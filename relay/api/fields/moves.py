"""The fields of a match's writes beyond `after` and the move: a game-ending move's claim
and a confirm's reason."""

from __future__ import annotations

from typing import Any

from relay.core.errors import RelayError
from relay.core.rated import CLAIMS
from relay.core.text_policy import clean_text
from relay.core.verdicts import DETAIL_MAX

__all__ = ["BAD_CLAIM", "BAD_REASON", "claim_field", "reason_field"]

BAD_CLAIM = (
    "The field 'claim' says what a game-ending move ended the game in for its mover: "
    "'win', 'draw' or 'loss', with 'end': true."
)


def claim_field(value: object, end: bool) -> str:
    """Returns a move's 'claim' (given, not None), or raises request/invalid: one of the
    claims, on a move with `end` true only."""
    if not end or not isinstance(value, str) or value not in CLAIMS:
        raise RelayError(
            "request/invalid",
            f"{BAD_CLAIM} Not {value!r:.80}" + ("." if end else " on a move without 'end': true."),
        )
    return value


BAD_REASON = (
    f"The field 'reason' must be a string of at most {DETAIL_MAX} characters once trimmed, with "
    "no control, format, invisible or bidirectional character (docs/fair-play.md#clean-names)."
)


def reason_field(body: dict[str, Any]) -> str:
    """Returns a confirm's 'reason', trimmed ('' without one, or when blank), or raises
    request/invalid."""
    value = body.get("reason")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RelayError("request/invalid", BAD_REASON)
    if not value.strip():
        return ""
    try:
        return clean_text(value, "reason", DETAIL_MAX)
    except RelayError:
        raise RelayError("request/invalid", BAD_REASON) from None

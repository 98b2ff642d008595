"""The fields of a match's writes beyond `after` and the move: a game-ending move's claim and
words, and a confirm's reason."""

from __future__ import annotations

from typing import Any

from relay.core.errors import RelayError
from relay.core.rated import CLAIMS
from relay.core.text_policy import clean_text
from relay.core.verdicts import DETAIL_MAX

__all__ = ["BAD_CLAIM", "BAD_DETAIL", "BAD_REASON", "claim_field", "detail_field", "reason_field"]

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


BAD_DETAIL = (
    "The field 'detail' says how a game-ending move ended the game, in its game's words: a "
    f"string of at most {DETAIL_MAX} characters once trimmed, with no control, format, invisible "
    "or bidirectional character, on a move with 'end': true."
)


def reason_field(body: dict[str, Any]) -> str:
    """Returns a confirm's 'reason', trimmed ('' without one, or when blank), or raises
    request/invalid."""
    return _words(body.get("reason"), "reason", BAD_REASON)


def detail_field(value: object, end: bool) -> str:
    """Returns a move's 'detail' (given, not None), trimmed ('' when blank), or raises
    request/invalid: words on a move with `end` true only."""
    if not end:
        raise RelayError("request/invalid", BAD_DETAIL)
    return _words(value, "detail", BAD_DETAIL)


def _words(value: object, field: str, bad: str) -> str:
    """Returns a text field trimmed and clean ('' for None or blank), or raises
    request/invalid with `bad`."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RelayError("request/invalid", bad)
    if not value.strip():
        return ""
    try:
        return clean_text(value, field, DETAIL_MAX)
    except RelayError:
        raise RelayError("request/invalid", bad) from None

"""The table's fields: an offer's kind and a chat line's text."""

from __future__ import annotations

from typing import Any

from relay.core.errors import RelayError
from relay.core.table import CHAT_MOST, OfferKind
from relay.core.text_policy import chat_line

__all__ = ["chat_text_field", "offer_kind_field"]


def offer_kind_field(body: dict[str, Any]) -> OfferKind:
    """Returns an offer's kind, or raises request/invalid."""
    kind = body.get("kind")
    if kind == "draw":
        return "draw"
    if kind == "takeback":
        return "takeback"
    raise RelayError("request/invalid", "The field 'kind' must be 'draw' or 'takeback'.")


def chat_text_field(body: dict[str, Any]) -> str:
    """Returns a chat post's text, clean (relay.core.text_policy), or raises request/invalid."""
    return chat_line(body.get("text"), CHAT_MOST)

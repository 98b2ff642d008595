"""The table's fields (relay/api/fields/table.py): a chat line's text and an offer's kind."""

from __future__ import annotations

import pytest

from relay.api.fields.table import chat_text_field, offer_kind_field
from relay.core.errors import RelayError
from relay.core.table import CHAT_MOST


def refused(call: object, *args: object) -> RelayError:
    """Returns the RelayError call(*args) raises."""
    assert callable(call)
    with pytest.raises(RelayError) as caught:
        call(*args)
    return caught.value


def test_a_chat_line_is_required_trimmed_and_bounded() -> None:
    assert chat_text_field({"text": " gg 👍🏽 "}) == "gg 👍🏽"
    assert chat_text_field({"text": "c" * CHAT_MOST}) == "c" * CHAT_MOST
    for body in ({}, {"text": None}, {"text": ""}, {"text": "c" * (CHAT_MOST + 1)}):
        error = refused(chat_text_field, body)
        assert error.code == "request/invalid" and "'text'" in error.message


def test_an_offer_is_of_a_draw_or_a_takeback() -> None:
    assert offer_kind_field({"kind": "draw"}) == "draw"
    assert offer_kind_field({"kind": "takeback"}) == "takeback"
    for body in ({}, {"kind": "Draw"}, {"kind": "undo"}, {"kind": ["draw"]}):
        assert refused(offer_kind_field, body).code == "request/invalid"

"""Moderation's fields (relay/api/fields/moderation.py): a ban's target read and made
canonical, a block's kind, what a report is about and its words."""

from __future__ import annotations

import pytest

from relay.api.fields.moderation import ban_target, block_kind, report_about, report_text
from relay.core.errors import RelayError
from relay.core.moderation import REPORT_ABOUT, REPORT_TEXT
from relay.core.standings import public_id

ID = public_id("a" * 64)


@pytest.mark.parametrize(
    ("given", "target"),
    [
        (f"id:{ID}", f"id:{ID}"),
        (ID, f"id:{ID}"),
        ("-startswith-", "id:-startswith-"),
        ("203.0.113.7", "203.0.113.7/32"),
        (" 203.0.113.7/24 ", "203.0.113.0/24"),
        ("10.0.0.0/8", "10.0.0.0/8"),
        ("2001:DB8::1", "2001:db8::1/128"),
        ("2001:db8:0:0::/32", "2001:db8::/32"),
    ],
)
def test_a_ban_target_is_a_public_id_or_an_address_range_made_canonical(
    given: str, target: str
) -> None:
    assert ban_target(given) == target
    assert ban_target(target) == target


@pytest.mark.parametrize(
    "given",
    [f"id:{ID}x", "id:short", "id:", "hello", "", "300.1.1.1", "10.0.0.0/33", 42, None, [ID]],
)
def test_anything_else_is_refused_as_a_ban_target(given: object) -> None:
    with pytest.raises(RelayError) as caught:
        ban_target(given)
    assert (caught.value.code, caught.value.status) == ("request/invalid", 400)
    assert repr(given) in caught.value.message


@pytest.mark.parametrize(("given", "kind"), [("block", "block"), ("mute", "mute"), ("none", None)])
def test_a_block_request_is_a_block_a_mute_or_none(given: str, kind: str | None) -> None:
    assert block_kind(given) == kind


@pytest.mark.parametrize("given", ["Block", "unblock", "", None, True])
def test_any_other_block_kind_is_refused(given: object) -> None:
    with pytest.raises(RelayError) as caught:
        block_kind(given)
    assert caught.value.code == "request/invalid" and repr(given) in caught.value.message


def test_a_report_is_about_play_a_name_or_chat() -> None:
    assert [report_about(about) for about in REPORT_ABOUT] == ["play", "name", "chat"]
    for wrong in ("cheating", "", None, ["play"]):
        with pytest.raises(RelayError) as caught:
            report_about(wrong)
        assert caught.value.code == "request/invalid"
        assert "must be one of play, name, chat" in caught.value.message


def test_a_reports_words_are_clean_chat_or_none() -> None:
    assert report_text(None) == report_text("") == ""
    assert report_text("  He said 💩 👍🏽  ") == "He said 💩 👍🏽"
    assert report_text("x" * REPORT_TEXT) == "x" * REPORT_TEXT
    for wrong in ("x" * (REPORT_TEXT + 1), "a\u202eb", "line\nbreak", 5):
        with pytest.raises(RelayError) as caught:
            report_text(wrong)
        assert caught.value.code == "request/invalid"

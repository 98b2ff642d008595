"""The fields of a match's writes (relay/api/fields/moves.py): a game-ending move's claim and
words, and a confirm's reason."""

from __future__ import annotations

import pytest

from relay.api.fields.moves import BAD_CLAIM, BAD_DETAIL, claim_field, detail_field, reason_field
from relay.core.errors import RelayError
from relay.core.verdicts import DETAIL_MAX


@pytest.mark.parametrize("claim", ["win", "draw", "loss"])
def test_a_claim_on_a_game_ending_move_is_read(claim: str) -> None:
    assert claim_field(claim, end=True) == claim


@pytest.mark.parametrize("value", ["won", "WIN", "", None, 1, ["win"]])
def test_a_claim_that_is_not_one_of_the_three_is_refused(value: object) -> None:
    with pytest.raises(RelayError) as caught:
        claim_field(value, end=True)
    assert (caught.value.code, caught.value.status) == ("request/invalid", 400)
    assert caught.value.message.startswith(BAD_CLAIM)
    assert caught.value.message.endswith(".")


def test_a_claim_on_a_move_that_does_not_end_the_game_is_refused() -> None:
    with pytest.raises(RelayError) as caught:
        claim_field("win", end=False)
    assert caught.value.code == "request/invalid"
    assert caught.value.message.endswith("on a move without 'end': true.")


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({}, ""),
        ({"reason": None}, ""),
        ({"reason": ""}, ""),
        ({"reason": " \t "}, ""),
        ({"reason": "  five in a row  "}, "five in a row"),
        ({"reason": "r" * DETAIL_MAX}, "r" * DETAIL_MAX),
        ({"reason": "cafe\u0301"}, "caf\u00e9"),  # NFC
    ],
)
def test_a_confirms_reason_is_optional_trimmed_and_clean(
    body: dict[str, object], reason: str
) -> None:
    assert reason_field(body) == reason


@pytest.mark.parametrize("reason", [5, ["no"], "r" * (DETAIL_MAX + 1), "a\u202eb", "a\x00b"])
def test_a_reason_that_is_not_clean_text_within_the_most_is_refused(reason: object) -> None:
    with pytest.raises(RelayError) as caught:
        reason_field({"reason": reason})
    assert (caught.value.code, caught.value.status) == ("request/invalid", 400)
    assert f"at most {DETAIL_MAX} characters" in caught.value.message


def test_confirm_reason_field() -> None:
    assert reason_field({}) == ""
    assert reason_field({"reason": None}) == ""
    assert reason_field({"reason": "   "}) == ""
    assert reason_field({"reason": "  column 9  "}) == "column 9"
    assert reason_field({"reason": "é" * 200}) == "é" * 200
    for bad in [5, "x" * 201, "tab\there", "a\x85b", "\u202eevil"]:
        with pytest.raises(RelayError) as caught:
            reason_field({"reason": bad})
        assert caught.value.code == "request/invalid"
        assert "'reason'" in caught.value.message


@pytest.mark.parametrize(
    ("value", "words"),
    [("", ""), ("  ", ""), ("  three mills ", "three mills"), ("w" * DETAIL_MAX, "w" * DETAIL_MAX)],
)
def test_a_game_ending_moves_words_are_trimmed(value: str, words: str) -> None:
    assert detail_field(value, end=True) == words


@pytest.mark.parametrize("value", [5, ["w"], "w" * (DETAIL_MAX + 1), "a\u202eb", "a\x00b"])
def test_words_that_are_not_clean_text_within_the_most_are_refused(value: object) -> None:
    with pytest.raises(RelayError) as caught:
        detail_field(value, end=True)
    assert (caught.value.code, caught.value.status, caught.value.message) == (
        "request/invalid", 400, BAD_DETAIL,
    )  # fmt: skip


def test_words_on_a_move_that_does_not_end_the_game_are_refused() -> None:
    with pytest.raises(RelayError) as caught:
        detail_field("three mills", end=False)
    assert (caught.value.code, caught.value.message) == ("request/invalid", BAD_DETAIL)

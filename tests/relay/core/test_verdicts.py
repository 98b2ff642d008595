"""How a match ended beyond a reason and a seat (relay/core/verdicts.py): a verdict's and a
dispute's fields after the seat, a referee's words cut to size, a confirm's reason read, and the
result a record or a player's list shows."""

from __future__ import annotations

import orjson
import pytest

from relay.core.reasons import Reason
from relay.core.verdicts import (
    DETAIL_MAX,
    DISPUTED,
    ILLEGAL,
    OVER,
    Ending,
    cut_detail,
    dispute_tail,
    result_of,
)


def tail_fields(tail: bytes) -> dict[str, object]:
    """Returns the fields a tail adds after an ended event's seat."""
    found: dict[str, object] = orjson.loads(b'{"seat":0%b}' % tail)
    del found["seat"]
    return found


def test_the_reasons_a_verdict_writes_are_wire_words() -> None:
    assert (OVER, ILLEGAL, DISPUTED) == (Reason.OVER, Reason.ILLEGAL, Reason.DISPUTED)
    assert (OVER, ILLEGAL, DISPUTED) == ("over", "illegal", "disputed")


def test_a_verdicts_tail_names_the_winner_or_a_draw_the_event_and_the_words() -> None:
    won = Ending(ILLEGAL, 1, 0, 7, 'column "8" is off the board')
    assert tail_fields(won.tail()) == {
        "winner": 0,
        "at": 7,
        "detail": 'column "8" is off the board',
    }
    assert won.tail().startswith(b',"winner":0,"at":7,')
    drawn = Ending(OVER, 0, None, 9, "")
    assert tail_fields(drawn.tail()) == {"winner": None, "at": 9, "detail": ""}


def test_a_disputes_tail_has_the_disputed_event_and_a_reason_if_given() -> None:
    assert dispute_tail(4, "") == b',"at":4'
    assert tail_fields(dispute_tail(4, "two moves\n\u2028at once")) == {
        "at": 4,
        "detail": "two moves\n\u2028at once",
    }


@pytest.mark.parametrize(
    ("length", "kept"), [(0, 0), (DETAIL_MAX - 1, DETAIL_MAX - 1), (DETAIL_MAX, DETAIL_MAX)]
)
def test_words_within_the_most_are_kept_whole(length: int, kept: int) -> None:
    assert cut_detail("w" * length) == "w" * kept


@pytest.mark.parametrize("length", [DETAIL_MAX + 1, 10 * DETAIL_MAX])
def test_longer_words_are_cut_to_the_most_with_an_ellipsis(length: int) -> None:
    cut = cut_detail("w" * length)
    assert len(cut) == DETAIL_MAX and cut == "w" * (DETAIL_MAX - 1) + "…"


def test_a_result_keeps_the_ended_events_result_fields_in_order() -> None:
    ended = {"seq": 9, "type": "ended", "detail": "d", "at": 8, "winner": None, "seat": 0}
    ended["reason"] = "over"
    result = result_of(ended)
    assert list(result.items()) == [
        ("reason", "over"),
        ("seat", 0),
        ("winner", None),
        ("at", 8),
        ("detail", "d"),
    ]
    assert result_of({"seq": 3, "type": "ended", "reason": "resigned", "seat": 1}) == {
        "reason": "resigned",
        "seat": 1,
    }


def test_an_agreed_or_unconfirmed_result_keeps_the_enders_claim_and_no_other_does() -> None:
    for reason in ("agreed", "unconfirmed"):
        ended = {"seq": 6, "type": "ended", "reason": reason, "seat": 1}
        assert result_of(ended, "win") == {"reason": reason, "seat": 1, "claim": "win"}
        assert result_of(ended) == {"reason": reason, "seat": 1}
    resigned = {"seq": 6, "type": "ended", "reason": "resigned", "seat": 1}
    assert result_of(resigned, "win") == {"reason": "resigned", "seat": 1}

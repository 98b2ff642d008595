"""Turn notices (relay/core/turns.py): what a store hands the webhook and Web Push when a match
gives a seat the turn, immutable, and the same notice however often its write is retried."""

from __future__ import annotations

import dataclasses

import pytest

from relay.core.turns import TurnNotice, TurnSink

DUE = 1_800_086_400.0


def notice(seq: int = 5, seat: int = 1) -> TurnNotice:
    """Returns the notice of event seq giving seat the turn, made positionally as a store makes
    one (match, game, seat, seq, contact, due)."""
    return TurnNotice("M" * 16, "xand0", seat, seq, "mailto:ann@example.org", DUE)


def test_a_notice_holds_its_fields_in_the_order_the_stores_give_them() -> None:
    made = notice()
    assert (made.match, made.game, made.seat, made.seq) == ("M" * 16, "xand0", 1, 5)
    assert (made.contact, made.due) == ("mailto:ann@example.org", DUE)
    assert [field.name for field in dataclasses.fields(TurnNotice)] == [
        "match",
        "game",
        "seat",
        "seq",
        "contact",
        "due",
        "player",
        "correspondence",
    ]


def test_a_retried_write_makes_the_same_notice_and_another_turn_another() -> None:
    assert notice() == notice() and hash(notice()) == hash(notice())
    assert len({notice(), notice(), notice(seq=6, seat=0), notice(seat=0)}) == 3


def test_a_notice_cannot_be_changed_on_its_way_to_the_webhook() -> None:
    made = notice()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seat = 0  # type: ignore[misc]
    assert not hasattr(made, "__dict__")


def test_a_queue_that_takes_a_notice_and_returns_is_a_sink() -> None:
    queued: list[TurnNotice] = []

    def queue(notice: TurnNotice) -> None:
        queued.append(notice)

    sink: TurnSink = queue
    sink(notice())
    sink(notice(seq=6, seat=0))
    assert [(one.seq, one.seat) for one in queued] == [(5, 1), (6, 0)]

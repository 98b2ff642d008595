"""The table around a match (relay/core/table.py): what a takeback undoes, the undo event, a
claim refused, an offer lapsing as the log moves on, and the table as its endpoint answers it."""

from __future__ import annotations

import orjson
import pytest

from relay.core.errors import RelayError
from relay.core.table import (
    ChatLine,
    Offer,
    Table,
    not_stalled,
    settle,
    table_body,
    takeback_count,
    undo_event,
)

NOW = 1_800_000_000.0


def refused(call: object, *args: object) -> RelayError:
    """Returns the RelayError call(*args) raises."""
    assert callable(call)
    with pytest.raises(RelayError) as caught:
        call(*args)
    return caught.value


@pytest.mark.parametrize(
    ("seat", "turn", "plies", "count"),
    [
        (0, 1, 1, 1),  # the partner has not replied: only the asker's own move
        (0, 0, 2, 2),  # the partner replied: both
        (1, 1, 5, 2),
        (1, 0, 5, 1),
        (0, None, 3, 1),
    ],
)
def test_a_takeback_undoes_the_askers_move_and_the_reply_to_it(
    seat: int, turn: int | None, plies: int, count: int
) -> None:
    assert takeback_count(seat, turn, plies) == count


@pytest.mark.parametrize(("seat", "turn", "plies"), [(0, 1, 0), (0, 0, 1), (1, 1, 0)])
def test_a_takeback_of_more_than_was_played_is_refused(seat: int, turn: int, plies: int) -> None:
    error = refused(takeback_count, seat, turn, plies)
    assert (error.code, error.status) == ("takeback/none", 409)


def test_the_undo_event_gives_the_asker_the_turn_and_with_a_clock_both_times() -> None:
    assert undo_event(8, 1, 2) == b'{"seq":8,"type":"undo","seat":1,"count":2}'
    assert orjson.loads(undo_event(8, 0, 1, (61_001, -3))) == {
        "seq": 8,
        "type": "undo",
        "seat": 0,
        "count": 1,
        "left": [61.001, 0.0],
    }


def test_a_claim_refused_says_why() -> None:
    yours = not_stalled(None, yours=True)
    assert (yours.code, yours.status) == ("claim/not_stalled", 409)
    assert yours.message.startswith("It is your turn")
    assert not_stalled(None, yours=False).message.startswith("No claim in this match now")
    assert not_stalled(41.6, yours=False).message.endswith("claim in 42 s.")


def test_a_standing_offer_lapses_when_the_log_moves_on_or_play_stops() -> None:
    offer = Offer("draw", 0, 5)
    assert settle(offer, 5, playing=True) is offer
    assert settle(offer, 6, playing=True) == Offer("draw", 0, 5, "lapsed")
    assert settle(offer, 5, playing=False) == Offer("draw", 0, 5, "lapsed")
    takeback = Offer("takeback", 1, 5, count=2)
    assert settle(takeback, 7, playing=True) == Offer("takeback", 1, 5, "lapsed", 2)


@pytest.mark.parametrize("state", ["accepted", "declined", "withdrawn", "lapsed"])
def test_an_answered_offer_stays_as_it_was_answered(state: str) -> None:
    offer = Offer("draw", 0, 5, state)  # type: ignore[arg-type]
    assert settle(offer, 9, playing=False) is offer
    assert settle(None, 9, playing=True) is None


def test_a_new_table_shows_both_seats_here_and_nothing_else() -> None:
    assert orjson.loads(table_body(Table(0), NOW)) == {
        "version": 0,
        "names": [None, None],
        "presence": [{"here": True}, {"here": True}],
        "offer": None,
        "chat": [],
        "claim_in": None,
        "claim_after": None,
    }


def test_a_table_shows_names_presence_offer_chat_and_claim_time() -> None:
    table = Table(
        version=7,
        names=("Ann", "Bob"),
        away=(None, NOW - 4),
        abandon_at=(None, NOW + 56.04),
        offer=Offer("takeback", 1, 6, count=2),
        chat=(ChatLine(1, 0, "hi <b>", 3, NOW - 9),),
        claim_at=NOW + 120.26,
        claim_after=300.0,
    )
    answer = orjson.loads(table_body(table, NOW))
    assert answer["presence"] == [
        {"here": True},
        {"here": False, "since": NOW - 4, "abandon_in": 56.0},
    ]
    assert answer["offer"] == {"kind": "takeback", "by": 1, "at": 6, "state": "offered", "count": 2}
    assert answer["chat"] == [{"n": 1, "seat": 0, "text": "hi <b>", "at": 3, "time": NOW - 9}]
    assert (answer["names"], answer["claim_in"], answer["claim_after"]) == (
        ["Ann", "Bob"],
        120.3,
        300.0,
    )
    later = orjson.loads(table_body(table, NOW + 500))
    assert later["presence"][1]["abandon_in"] == 0.0 and later["claim_in"] == 0.0
    draw = orjson.loads(table_body(Table(1, offer=Offer("draw", 0, 4, count=3)), NOW))
    assert draw["offer"]["count"] is None  # a count is a takeback's only


def test_names_and_chat_are_left_out_when_the_host_or_the_reader_may_not_have_them() -> None:
    table = Table(2, names=("Ann", "Bob"), chat=(ChatLine(1, 0, "hi", 3, NOW),))
    answer = orjson.loads(table_body(table, NOW, names=False, chat=False))
    assert (answer["names"], answer["chat"]) == ([None, None], [])
    assert orjson.loads(table_body(table, NOW, names=True, chat=False))["names"] == ["Ann", "Bob"]

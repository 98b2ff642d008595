"""Rematches (relay/core/rematch.py): an offer, its acceptance with the first move swapped, a
decline, an offer that lapses, repeats that change nothing, and the answer that describes it."""

from __future__ import annotations

import orjson
import pytest

from relay.core.errors import RelayError
from relay.core.rematch import NONE, Rematch, RematchOp, lapse_at, not_finished, rematch_body, step

GRACE = 60.0
NOW = 1_800_000_000.0
NEW = "N" * 16


def act(
    rematch: Rematch, op: RematchOp, seat: int | None, at: float = NOW, first: int = 0
) -> Rematch:
    """Returns the rematch after one call at `at`, of a match whose seat `first` moved first."""
    return step(rematch, op, seat, at, GRACE, NEW, first)


def test_nobody_offered_a_rematch_of_a_new_match() -> None:
    assert Rematch(0, "none", (False, False)) == NONE
    assert act(NONE, "read", None) == NONE
    assert lapse_at(NONE, GRACE) is None


@pytest.mark.parametrize("seat", [0, 1])
def test_an_offer_stands_for_the_grace_period(seat: int) -> None:
    offered = act(NONE, "offer", seat)
    assert offered.state == "offered" and offered.version == 1
    assert offered.offers == ((True, False) if seat == 0 else (False, True))
    assert (offered.offered_at, offered.match, offered.first) == (NOW, None, None)
    assert lapse_at(offered, GRACE) == NOW + GRACE


@pytest.mark.parametrize(("old_first", "new_first"), [(0, 1), (1, 0)])
def test_the_partners_offer_accepts_it_and_the_other_seat_moves_first(
    old_first: int, new_first: int
) -> None:
    offered = act(NONE, "offer", 1, first=old_first)
    accepted = act(offered, "offer", 0, NOW + 5, first=old_first)
    assert accepted == Rematch(2, "accepted", (True, True), match=NEW, first=new_first)
    assert lapse_at(accepted, GRACE) is None


def test_without_a_known_first_mover_the_new_match_names_none() -> None:
    offered = step(NONE, "offer", 0, NOW, GRACE, NEW, None)
    assert step(offered, "offer", 1, NOW, GRACE, NEW, None).first is None


def test_an_offer_repeated_or_made_after_acceptance_changes_nothing() -> None:
    offered = act(NONE, "offer", 0)
    assert act(offered, "offer", 0, NOW + 1) is offered
    accepted = act(offered, "offer", 1)
    assert act(accepted, "offer", 0) is accepted
    assert act(accepted, "offer", 1, NOW + 3 * GRACE) is accepted  # never lapses
    assert act(accepted, "read", 1, NOW + 3 * GRACE) is accepted


def test_an_accepted_rematch_cannot_be_declined() -> None:
    accepted = act(act(NONE, "offer", 0), "offer", 1)
    with pytest.raises(RelayError) as caught:
        act(accepted, "decline", 0)
    assert (caught.value.code, caught.value.status) == ("rematch/accepted", 409)


def test_a_decline_ends_a_standing_offer_and_names_who_declined() -> None:
    declined = act(act(NONE, "offer", 0), "decline", 1)
    assert declined == Rematch(2, "declined", (False, False), by=1)
    assert act(declined, "decline", 1) is declined  # a repeat changes nothing
    again = act(declined, "decline", 0)  # the offerer takes it back too: a change
    assert (again.state, again.by, again.version) == ("declined", 0, 3)


def test_a_decline_may_come_ahead_of_any_offer() -> None:
    assert act(NONE, "decline", 0) == Rematch(1, "declined", (False, False), by=0)


def test_an_offer_after_a_decline_stands_anew() -> None:
    offered = act(act(NONE, "decline", 1), "offer", 0, NOW + 1)
    assert (offered.state, offered.offers, offered.version) == ("offered", (True, False), 2)


def test_an_offer_lapses_once_the_grace_period_is_past_even_at_a_read() -> None:
    offered = act(NONE, "offer", 0)
    assert act(offered, "read", None, NOW + GRACE) is offered  # not yet: due, not past
    lapsed = act(offered, "read", None, NOW + GRACE + 0.001)
    assert lapsed == Rematch(2, "lapsed", (False, False))
    assert lapse_at(lapsed, GRACE) is None


def test_a_late_acceptance_is_an_offer_of_its_own() -> None:
    offered = act(NONE, "offer", 0)
    late = act(offered, "offer", 1, NOW + GRACE + 1)
    assert (late.state, late.offers, late.version) == ("offered", (False, True), 3)
    assert late.offered_at == NOW + GRACE + 1


def test_a_late_decline_declines_the_lapsed_offer() -> None:
    late = act(act(NONE, "offer", 0), "decline", 1, NOW + GRACE + 1)
    assert (late.state, late.by, late.version) == ("declined", 1, 3)


def test_an_offer_for_a_match_not_over_is_refused() -> None:
    error = not_finished()
    assert (error.code, error.status) == ("rematch/not_finished", 409)


def test_the_answer_describes_the_rematch_without_its_timing() -> None:
    accepted = act(act(NONE, "offer", 0), "offer", 1)
    assert orjson.loads(rematch_body(accepted)) == {
        "version": 2,
        "state": "accepted",
        "offers": [True, True],
        "by": None,
        "match": NEW,
        "first": 1,
    }
    assert orjson.loads(rematch_body(NONE)) == {
        "version": 0,
        "state": "none",
        "offers": [False, False],
        "by": None,
        "match": None,
        "first": None,
    }

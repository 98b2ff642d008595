"""Which ended matches are rated and with what score, a move's claim, and a seek's rating range
(relay/core/rated.py)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from relay.core.errors import RelayError
from relay.core.rated import (
    BAD_CLAIM,
    BAD_RANGE,
    DEFAULT_RULES,
    MOST_RATING,
    RANGE_IN_ROOM,
    RANGE_WITHOUT_PLAYER,
    Claim,
    RatingRange,
    RatingRules,
    can_pair,
    claim_field,
    range_field,
    score_of,
)

PLAYER = "p" * 32


# Which games are rated.


def test_by_default_only_the_games_of_a_referee_the_host_runs_are_rated() -> None:
    assert not DEFAULT_RULES.rates("xand0")
    refereed = RatingRules(refereed=frozenset({"connect4"}))
    assert refereed.rates("connect4") and not refereed.rates("xand0")
    assert RatingRules(unrefereed=True).rates("xand0")
    assert (DEFAULT_RULES.timeouts, DEFAULT_RULES.abandoned) == (True, True)


# Which ended matches are rated.


def ended(reason: str, seat: int, **more: Any) -> dict[str, Any]:
    """Returns the fields of an ended event."""
    return {"reason": reason, "seat": seat, **more}


@pytest.mark.parametrize(
    ("fields", "score"),
    [
        # A referee's verdict, whatever ended the match.
        (ended("over", 0, winner=0), 1.0),
        (ended("over", 0, winner=1), 0.0),
        (ended("over", 1, winner=None), 0.5),
        (ended("illegal", 0, winner=1), 0.0),
        (ended("disputed", 1, winner=0), 1.0),
        (ended("disputed", 0, winner=None), 0.5),
        (ended("agreed", 1, winner=1), 0.0),
        # Ended by one side's act or failing: the other seat won.
        (ended("resigned", 0), 0.0),
        (ended("resigned", 1), 1.0),
        (ended("stalled", 1), 1.0),
        (ended("timeout", 0), 0.0),
        (ended("abandoned", 1), 1.0),
        # An accepted draw offer.
        (ended("drawn", 0), 0.5),
        (ended("drawn", 1), 0.5),
    ],
)
def test_trusted_results_are_rated(fields: dict[str, Any], score: float) -> None:
    assert score_of(fields) == score


@pytest.mark.parametrize(
    "fields",
    [
        ended("disputed", 0),  # no referee: nobody knows who is right
        ended("over", 1),
        ended("illegal", 0),
        ended("unconfirmed", 1),  # the partner said nothing
        ended("agreed", 1),  # agreed, but nobody said to what
        ended("cancelled", 0),  # a reason this relay does not know yet
    ],
)
def test_untrusted_results_are_not_rated(fields: dict[str, Any]) -> None:
    assert score_of(fields) is None


def test_unconfirmed_is_never_rated_whatever_is_claimed() -> None:
    assert score_of(ended("unconfirmed", 1), "win") is None
    assert score_of(ended("unconfirmed", 1, winner=0)) is None
    assert score_of(ended("disputed", 1), "win") is None


@pytest.mark.parametrize(
    ("confirmer", "claim", "score"),
    [
        (1, "win", 1.0),  # seat 0 moved, claimed the win, seat 1 confirmed
        (1, "loss", 0.0),
        (1, "draw", 0.5),
        (0, "win", 0.0),  # seat 1 moved and won
        (0, "loss", 1.0),
        (0, "draw", 0.5),
    ],
)
def test_an_agreed_ending_is_rated_as_its_mover_claimed(
    confirmer: int, claim: Claim, score: float
) -> None:
    assert score_of(ended("agreed", confirmer), claim) == score


def test_a_verdict_outweighs_a_claim() -> None:
    assert score_of(ended("agreed", 1, winner=1), "win") == 0.0


def test_the_host_sets_whether_timeouts_and_abandonments_are_rated() -> None:
    assert score_of(ended("timeout", 0), rules=RatingRules(timeouts=False)) is None
    assert score_of(ended("timeout", 0), rules=RatingRules(abandoned=False)) == 0.0
    assert score_of(ended("abandoned", 0), rules=RatingRules(abandoned=False)) is None
    assert score_of(ended("abandoned", 0), rules=RatingRules(timeouts=False)) == 0.0
    assert score_of(ended("resigned", 0), rules=RatingRules(False, False)) == 0.0


@pytest.mark.parametrize(
    "fields",
    [ended("over", 2, winner=0), ended("over", 0, winner=2), ended("resigned", True), {}],
)
def test_a_malformed_ended_event_is_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="is a seat, 0 or 1"):
        score_of(fields)


def test_an_unknown_claim_is_refused() -> None:
    with pytest.raises(ValueError, match="A claim is one of"):
        score_of(ended("agreed", 0), "won")


# A game-ending move's claim.


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


# Seeking within a rating range.


def seek(rating_range: object, **more: Any) -> dict[str, Any]:
    """Returns a seek's body with this rating range, by a player key."""
    return {"game": "connect4", "player": PLAYER, "rating_range": rating_range, **more}


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ({"min": 1400, "max": 1700}, RatingRange(1400, 1700)),
        ({"min": 1400}, RatingRange(least=1400)),
        ({"max": 1700, "min": None}, RatingRange(most=1700)),
        ({"min": 1500, "max": 1500}, RatingRange(1500, 1500)),
        ({"within": 200}, RatingRange(within=200)),
    ],
)
def test_a_rating_range_is_read_from_a_seek(given: object, read: RatingRange) -> None:
    assert range_field(seek(given)) == read
    assert range_field(seek(read.as_dict())) == read


def test_a_seek_without_a_range_has_none() -> None:
    assert range_field({"game": "connect4"}) is None
    assert range_field(seek(None)) is None


@pytest.mark.parametrize(
    "given",
    [
        {},
        {"min": 1700, "max": 1400},
        {"min": "1400"},
        {"min": 1400.5},
        {"min": True},
        {"max": -1},
        {"max": 4001},
        {"within": 0},
        {"within": 200, "min": 1400},
        {"low": 1400},
        [1400, 1700],
        "1400-1700",
        {"min": None},
    ],
)
def test_a_malformed_rating_range_is_refused_with_the_rule(given: object) -> None:
    with pytest.raises(RelayError) as caught:
        range_field(seek(given))
    assert caught.value.code == "request/invalid"
    assert caught.value.status == 400
    assert caught.value.message.startswith(BAD_RANGE)
    assert repr(given)[:20] in caught.value.message


def test_a_rating_range_needs_a_player_key_and_no_room() -> None:
    with pytest.raises(RelayError, match=RANGE_WITHOUT_PLAYER):
        range_field({"game": "connect4", "rating_range": {"min": 1400}})
    with pytest.raises(RelayError, match=RANGE_IN_ROOM):
        range_field(seek({"min": 1400}, room="friends"))


def test_a_range_admits_the_ratings_within_it_in_whole_points() -> None:
    fixed = RatingRange(1400, 1700)
    assert [fixed.admits(r, own=2000) for r in (1399.9, 1400.0, 1700.9, 1701.0)] == [
        False,
        True,
        True,
        False,
    ]
    around = RatingRange(within=100)
    assert around.bounds(1550.7) == (1450, 1650)
    assert around.admits(1650.5, own=1550.7) and not around.admits(1449.9, own=1550.7)
    assert RatingRange(least=1400).admits(3999, own=0)
    assert not fixed.admits(None, own=1500)  # a seeker without a player key has no rating


def test_two_seeks_pair_only_within_both_ranges() -> None:
    near = RatingRange(within=100)
    assert can_pair(1500, None, 1900, None)
    assert can_pair(1500, near, 1590, None)
    assert not can_pair(1500, near, 1700, None)
    assert not can_pair(1500, None, 1700, near)
    assert can_pair(1500, near, 1550, RatingRange(1400, 1600))
    assert not can_pair(1500, near, 1550, RatingRange(least=1501))
    assert not can_pair(None, None, 1550, near)  # the seeker is not rated
    assert not can_pair(1500, near, None, None)


def test_a_ranges_whole_numbers_may_be_written_as_floats_and_are_kept_as_ints() -> None:
    read = range_field(seek({"min": 1400.0, "max": 1700.0}))
    assert read == RatingRange(1400, 1700)
    assert read is not None and read.as_dict() == {"min": 1400, "max": 1700}
    assert all(type(bound) is int for bound in read.as_dict().values())
    within = range_field(seek({"within": 50.0}))
    assert within is not None and type(within.within) is int


def test_a_ranges_bounds_reach_the_ends_of_the_ratings() -> None:
    assert range_field(seek({"min": 0, "max": MOST_RATING})) == RatingRange(0, MOST_RATING)
    assert range_field(seek({"within": MOST_RATING})) == RatingRange(within=MOST_RATING)
    assert range_field(seek({"min": MOST_RATING})) == RatingRange(least=MOST_RATING)
    with pytest.raises(RelayError):
        range_field(seek({"within": MOST_RATING + 1}))
    with pytest.raises(RelayError):
        range_field(seek({"min": MOST_RATING + 1}))


def test_an_open_range_admits_every_rated_partner_and_no_unrated_one() -> None:
    assert RatingRange().bounds(1500) == (-math.inf, math.inf)
    assert RatingRange(most=1600).bounds(3000) == (-math.inf, 1600)
    assert RatingRange().admits(400, own=4000) and RatingRange().admits(4000, own=400)
    assert not RatingRange().admits(None, own=1500)

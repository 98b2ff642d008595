"""Which ended matches are rated and with what score, and which ratings a seek's rating range
admits (relay/core/rated.py)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from relay.core.rated import (
    DEFAULT_RULES,
    Claim,
    RatingRange,
    RatingRules,
    can_pair,
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


# Seeking within a rating range.


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


def test_an_open_range_admits_every_rated_partner_and_no_unrated_one() -> None:
    assert RatingRange().bounds(1500) == (-math.inf, math.inf)
    assert RatingRange(most=1600).bounds(3000) == (-math.inf, 1600)
    assert RatingRange().admits(400, own=4000) and RatingRange().admits(4000, own=400)
    assert not RatingRange().admits(None, own=1500)

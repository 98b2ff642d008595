"""Ratings (relay/core/ratings.py): Glicko-2 against Glickman's worked example, one game at a
time as on lichess, an idle player's deviation growing back. Which ended matches are rated, and
seeks' rating ranges, are tests/relay/core/test_rated.py's."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.core.ratings import (
    DAY,
    GLICKO,
    LICHESS,
    Rating,
    deviation_at,
    expected_score,
    is_provisional,
    new_rating,
    rate,
    rate_period,
    shown,
)

NOW = 1_800_000_000.0
"""A moment to rate at (seconds since the epoch)."""


def glicko(rating: float, deviation: float) -> Rating:
    """Returns a rating of the paper's example, its last period ended a day (a period) ago."""
    return Rating(rating, deviation, 0.06, games=10, at=NOW - DAY)


# Glickman's worked example ("Example of the Glicko-2 system", 2013).


def test_the_worked_example_comes_out_as_the_paper_says() -> None:
    player = glicko(1500, 200)
    games = [(glicko(1400, 30), 1.0), (glicko(1550, 100), 0.0), (glicko(1700, 300), 0.0)]
    after = rate_period(player, games, NOW, GLICKO)
    # The paper rounds each step to four places and reads 1464.06, 151.52, 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert (after.games, after.at) == (13, NOW)


def test_a_game_a_period_after_the_last_is_rated_as_a_period_of_one_game() -> None:
    a, b = glicko(1500, 200), glicko(1400, 30)
    after_a, after_b = rate(a, b, 1.0, NOW, GLICKO)
    assert after_a == rate_period(a, [(b, 1.0)], NOW, GLICKO)
    assert after_b == rate_period(b, [(a, 0.0)], NOW, GLICKO)


def test_a_period_without_games_only_grows_the_deviation() -> None:
    player = glicko(1500, 200)
    after = rate_period(player, [], NOW, GLICKO)
    assert (after.rating, after.volatility, after.games) == (1500, 0.06, 10)
    assert after.deviation == pytest.approx(math.sqrt(200**2 + (0.06 * 173.7178) ** 2))


# One game at a time.


def test_a_new_player_starts_at_1500_provisional() -> None:
    rating = new_rating()
    assert (rating.rating, rating.deviation, rating.volatility, rating.games) == (
        1500.0,
        500.0,
        0.09,
        0,
    )
    assert rating.at is None
    assert is_provisional(rating, NOW)
    assert shown(rating, NOW) == "1500?"


def test_the_winner_gains_what_the_loser_loses_between_equals() -> None:
    winner, loser = rate(new_rating(), new_rating(), 1.0, NOW)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert 230 < winner.rating - 1500 < 250  # a first game between new players moves much
    assert winner.deviation == loser.deviation < 500
    assert winner.games == loser.games == 1
    assert winner.at == loser.at == NOW


def test_a_draw_between_equals_changes_no_rating_but_narrows_both() -> None:
    a, b = rate(new_rating(), new_rating(), 0.5, NOW)
    assert a.rating == b.rating == 1500
    assert a.deviation == b.deviation < 500


def test_a_draw_moves_the_weaker_up_and_the_stronger_down() -> None:
    strong = Rating(1900, 60, 0.06, games=50, at=NOW - 60)
    weak = Rating(1600, 60, 0.06, games=50, at=NOW - 60)
    strong_after, weak_after = rate(strong, weak, 0.5, NOW)
    assert strong_after.rating < 1900
    assert weak_after.rating > 1600


def test_rating_is_symmetric_in_the_seats() -> None:
    a = Rating(1620, 80, 0.07, games=20, at=NOW - 3 * DAY)
    b = Rating(1480, 150, 0.05, games=4, at=NOW - 40 * DAY)
    a_after, b_after = rate(a, b, 1.0, NOW)
    assert rate(b, a, 0.0, NOW) == (b_after, a_after)


def test_an_upset_moves_ratings_further_than_an_expected_result() -> None:
    strong = Rating(1900, 60, 0.06, games=50, at=NOW - 60)
    weak = Rating(1500, 60, 0.06, games=50, at=NOW - 60)
    expected, _ = rate(strong, weak, 1.0, NOW)
    upset, _ = rate(strong, weak, 0.0, NOW)
    assert 1900 - upset.rating > expected.rating - 1900 > 0


def test_the_expected_score_favours_the_higher_rating() -> None:
    strong = Rating(1900, 60, 0.06, games=50, at=NOW)
    weak = Rating(1500, 60, 0.06, games=50, at=NOW)
    assert expected_score(strong, weak, NOW) == pytest.approx(1 - expected_score(weak, strong, NOW))
    assert 0.85 < expected_score(strong, weak, NOW) < 0.95
    assert expected_score(new_rating(), new_rating(), NOW) == 0.5


def test_games_in_a_row_settle_a_rating_and_drop_its_question_mark() -> None:
    a, b = new_rating(), new_rating()
    for game in range(30):
        a, b = rate(a, b, 1.0 if game % 3 else 0.5, NOW + game * 600)
    assert a.rating > 1600 > 1400 > b.rating
    assert not is_provisional(a, NOW + 30 * 600)
    assert shown(a, NOW + 30 * 600) == str(math.floor(a.rating))
    assert a.games == b.games == 30


# Inactivity.


def test_an_idle_players_deviation_grows_with_time_up_to_a_new_players() -> None:
    rating = Rating(1800, 50, 0.06, games=100, at=NOW)
    grown = [deviation_at(rating, NOW + days * DAY) for days in (0, 1, 30, 365, 3650, 36500)]
    assert grown[0] == 50
    assert grown == sorted(grown)
    assert grown[1] < 51 < grown[2]
    assert grown[-1] == LICHESS.deviation == 500
    assert not is_provisional(rating, NOW + 30 * DAY)
    assert is_provisional(rating, NOW + 3650 * DAY)
    assert shown(rating, NOW + 3650 * DAY) == "1800?"


def test_a_clock_behind_the_last_game_grows_nothing() -> None:
    # Another process's clock may read a little earlier than the one that rated last.
    rating = Rating(1800, 50, 0.06, games=100, at=NOW)
    assert deviation_at(rating, NOW - 30) == 50
    a, _ = rate(rating, rating, 1.0, NOW - 30)
    assert a.deviation < 50


def test_idle_time_counts_in_the_next_game() -> None:
    fresh = Rating(1800, 50, 0.06, games=100, at=NOW)
    idle = Rating(1800, 50, 0.06, games=100, at=NOW - 365 * DAY)
    opponent = Rating(1800, 50, 0.06, games=100, at=NOW)
    fresh_after, _ = rate(fresh, opponent, 1.0, NOW)
    idle_after, _ = rate(idle, opponent, 1.0, NOW)
    # Less is known of the idle player, so the same win moves it further.
    assert idle_after.rating - 1800 > fresh_after.rating - 1800 > 0
    assert idle_after.deviation > fresh_after.deviation


def test_a_score_outside_0_to_1_is_refused() -> None:
    for score in (-0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match="A score is a number from 0"):
            rate(new_rating(), new_rating(), score, NOW)


def test_a_rating_that_is_not_a_number_is_refused() -> None:
    for broken in (Rating(math.nan, 50, 0.06), Rating(1500, math.inf, 0.06)):
        with pytest.raises(ValueError, match="must be finite"):
            rate(broken, new_rating(), 1.0, NOW)


# Properties.

ratings = st.tuples(
    st.floats(400, 4000),
    st.floats(45, 500),
    st.floats(0.01, 0.1),
    st.integers(0, 10_000),
    st.one_of(st.none(), st.floats(NOW - 3650 * DAY, NOW + 3600)),
).map(lambda fields: Rating(*fields))
"""Ratings within the system's bounds, their last game up to ten years before NOW (or a
little after it, on a clock ahead of NOW's), or none."""
scores = st.sampled_from([0.0, 0.5, 1.0])


@given(ratings, ratings, scores)
def test_ratings_stay_finite_and_within_the_systems_bounds(
    a: Rating, b: Rating, score: float
) -> None:
    for after in rate(a, b, score, NOW):
        assert 400 <= after.rating <= 4000
        assert 45 <= after.deviation <= 500
        assert 0.01 <= after.volatility <= 0.1
        assert all(math.isfinite(x) for x in (after.rating, after.deviation, after.volatility))


@given(ratings, ratings)
def test_the_winner_never_loses_points_nor_the_loser_gains(a: Rating, b: Rating) -> None:
    winner, loser = rate(a, b, 1.0, NOW)
    assert winner.rating >= a.rating
    assert loser.rating <= b.rating


@given(ratings, ratings, scores)
def test_swapping_the_seats_swaps_the_results(a: Rating, b: Rating, score: float) -> None:
    a_after, b_after = rate(a, b, score, NOW)
    assert rate(b, a, 1.0 - score, NOW) == (b_after, a_after)


@given(ratings, ratings, scores)
def test_the_deviation_shrinks_after_a_game_played_at_once(
    a: Rating, b: Rating, score: float
) -> None:
    # Played right after the last game: nothing grows the deviation, and the game narrows it
    # (down to the least a deviation keeps).
    a = Rating(a.rating, a.deviation, a.volatility, a.games, at=NOW)
    after, _ = rate(a, b, score, NOW)
    assert after.deviation < a.deviation or after.deviation == LICHESS.least_deviation


def test_a_game_that_tells_little_leaves_a_new_players_deviation_at_the_most() -> None:
    # A new player's loss to a far stronger one was all but certain: its deviation stays at
    # the most a deviation grows to, as on lichess.
    lost, _ = rate(new_rating(), Rating(3200, 45, 0.06, games=900, at=NOW), 0.0, NOW)
    assert lost.deviation == LICHESS.deviation
    assert lost.rating < 1500

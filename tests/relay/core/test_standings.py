"""A key's standing in a game (relay/core/standings.py): both seats' new ratings and history
entries from one match, the opponents a standing remembers, who is fit for a leaderboard, the
public ids answered in place of key digests, and the rating endpoints' answers."""

from __future__ import annotations

import pytest

from relay.core.patterns import PUBLIC_ID
from relay.core.rated import RatingRules
from relay.core.ratings import DAY, Rating, new_rating, rate
from relay.core.standings import (
    OPPONENTS_KEPT,
    Entry,
    MatchRating,
    Standing,
    board_fit,
    board_rows,
    met,
    pair_of,
    public_id,
    rated_pair,
    rated_seats,
    seat_id,
    standing_answer,
)

NOW = 1_800_000_000.0
SETTLED = Rating(1873.46, 60.0, 0.06, games=40, at=NOW)
"""An established rating, its last game just now."""


def test_a_rated_match_gives_each_seat_the_rating_rate_gives_and_a_history_entry() -> None:
    zero, one = Rating(1600, 80, 0.06, 20, NOW - DAY), new_rating()
    new_zero, new_one, entry_zero, entry_one, done = rated_pair("M" * 16, zero, one, 1.0, NOW)
    assert (new_zero, new_one) == rate(zero, one, 1.0, NOW)
    assert entry_zero == Entry(
        "M" * 16, NOW, 1.0, 1600, new_zero.rating, new_zero.deviation, one.rating
    )
    assert entry_one == Entry(
        "M" * 16, NOW, 0.0, one.rating, new_one.rating, new_one.deviation, 1600
    )
    assert done == MatchRating((1600, 1500), (new_zero.rating, new_one.rating))
    assert done.pairs() == ((1600, new_zero.rating), (1500, new_one.rating))


def test_a_draw_scores_a_half_for_both_seats() -> None:
    _, _, zero, one, _ = rated_pair("M" * 16, new_rating(), new_rating(), 0.5, NOW)
    assert zero.score == one.score == 0.5


def test_ratings_are_answered_to_one_decimal() -> None:
    done = MatchRating((1500.04, 1499.96), (1523.96, 1476.04))
    assert done.seats() == [
        {"before": 1500.0, "after": 1524.0},
        {"before": 1500.0, "after": 1476.0},
    ]
    assert done.seat(1) == {"before": 1500.0, "after": 1476.0}
    assert rated_seats(done.pairs()) == {"ratings": done.seats()}
    assert rated_seats(None) == {}
    entry = Entry("M" * 16, NOW, 1.0, 1500.04, 1523.96, 150.0, 1649.95)
    assert entry.as_dict() == {
        "match": "M" * 16,
        "at": NOW,
        "score": 1.0,
        "before": 1500.0,
        "after": 1524.0,
        "opponent": 1650.0,
    }


def test_a_standing_remembers_its_first_distinct_opponents() -> None:
    opponents = met((), "a")
    assert opponents == ("a",)
    assert met(opponents, "a") == ("a",)
    for n in range(2 * OPPONENTS_KEPT):
        opponents = met(opponents, f"k{n}")
    assert len(opponents) == OPPONENTS_KEPT
    assert opponents[:2] == ("a", "k0")
    assert met(opponents, "newcomer") == opponents


RULES = RatingRules(board_opponents=3, board_age=7 * DAY)


def test_an_established_key_with_enough_opponents_and_old_enough_is_on_the_board() -> None:
    assert board_fit(SETTLED, NOW - 7 * DAY, ("a", "b", "c"), NOW, RULES)


@pytest.mark.parametrize(
    ("rating", "first", "opponents"),
    [
        (new_rating(), NOW - 30 * DAY, ("a", "b", "c")),  # provisional
        (Rating(1873, 60, 0.06, 40, NOW - 3650 * DAY), NOW - 3650 * DAY, ("a", "b", "c")),  # idle
        (SETTLED, NOW - 30 * DAY, ("a", "b")),  # too few opponents
        (SETTLED, NOW - 7 * DAY + 1, ("a", "b", "c")),  # its first rated game too recent
    ],
)
def test_a_key_falling_short_of_any_rule_is_off_the_board(
    rating: Rating, first: float, opponents: tuple[str, ...]
) -> None:
    assert not board_fit(rating, first, opponents, NOW, RULES)


def test_a_board_rule_past_the_opponents_kept_asks_for_those_kept() -> None:
    kept = tuple(f"k{n}" for n in range(OPPONENTS_KEPT))
    rules = RatingRules(board_opponents=OPPONENTS_KEPT + 10, board_age=0.0)
    assert board_fit(SETTLED, NOW, kept, NOW, rules)
    assert not board_fit(SETTLED, NOW, kept[:-1], NOW, rules)


def test_a_pair_of_keys_is_one_either_way_round_and_per_game() -> None:
    assert pair_of("xand0", "b", "a") == pair_of("xand0", "a", "b") == ("xand0", "a", "b")
    assert pair_of("dots", "a", "b") != pair_of("xand0", "a", "b")


def test_a_public_id_is_12_url_safe_characters_stable_across_releases() -> None:
    # Bans and reports name keys by these: the same digest must give the same id for ever.
    assert public_id("a" * 64) == "d2qMdTc1kM_R"
    assert public_id("0" * 64) == "4No_uXuKtYTs"
    ids = {public_id(f"{n:064x}") for n in range(1000)}
    assert len(ids) == 1000
    assert all(PUBLIC_ID.fullmatch(found) for found in ids)


def test_a_seat_without_a_player_key_has_no_public_id() -> None:
    assert seat_id(None) is None and seat_id("") is None
    assert seat_id("a" * 64) == public_id("a" * 64)


def test_a_standing_is_answered_with_its_deviation_grown_to_now() -> None:
    entry = Entry("M" * 16, NOW, 1.0, 1850.0, 1873.46, 60.0, 1900.0)
    standing = Standing(SETTLED, version=4, name="Ann", history=[entry])
    answer = standing_answer("xand0", standing, NOW)
    assert answer == {
        "game": "xand0",
        "rating": 1873.5,
        "deviation": 60.0,
        "games": 40,
        "provisional": False,
        "shown": "1873",
        "at": NOW,
        "history": [entry.as_dict()],
    }
    later = standing_answer("xand0", standing, NOW + 3650 * DAY)
    assert later["deviation"] > 110 and later["provisional"] and later["shown"] == "1873?"
    assert standing_answer("xand0", Standing(), NOW)["shown"] == "1500?"


def test_a_leaderboard_lists_established_ratings_best_first_at_most_limit() -> None:
    def settled(points: float) -> Rating:
        return Rating(points, 50.0, 0.06, games=30, at=NOW)

    found: list[tuple[str, Rating, str | None]] = [
        ("d1", settled(1700), "Dee"),
        ("d2", new_rating(), "New"),  # provisional: not listed
        ("d3", settled(1900), None),
        ("d0", settled(1700), "Oh"),  # a tie: the digest decides, the same in every store
        ("d4", settled(1600), "Four"),
    ]
    rows = board_rows(found, 3, NOW)
    assert [(row["rank"], row["name"]) for row in rows] == [(1, None), (2, "Oh"), (3, "Dee")]
    assert rows[0] == {
        "rank": 1,
        "id": public_id("d3"),
        "name": None,
        "rating": 1900.0,
        "deviation": 50.0,
        "games": 30,
        "shown": "1900",
    }
    assert len(board_rows(found, 100, NOW)) == 4
    assert board_rows(found, 0, NOW) == []

"""A seek's fields (relay/api/fields/seek.py): its time control, player key, contact handle,
display name and rating range, each read as given or refused with its rule."""

from __future__ import annotations

from typing import Any

import pytest

from relay.api.fields.seek import (
    BAD_CONTROL,
    BAD_PLAYER,
    BAD_RANGE,
    RANGE_IN_ROOM,
    RANGE_WITHOUT_PLAYER,
    contact_field,
    control_field,
    display_name_field,
    player_field,
    range_field,
)
from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.players import CONTACT_MOST
from relay.core.rated import MOST_RATING, RatingRange
from relay.core.table import NAME_MOST

DAYS_30 = 30 * 86400
PLAYER = "p" * 32
KEY = "Kq3xW9" + "k" * 37


def refused(call: object, *args: object) -> RelayError:
    """Returns the RelayError call(*args) raises."""
    assert callable(call)
    with pytest.raises(RelayError) as caught:
        call(*args)
    return caught.value


# The time control.


@pytest.mark.parametrize(
    "control",
    [
        TimeControl("fischer", 300, 3),
        TimeControl("fischer", 1, 0),
        TimeControl("fischer", DAYS_30, 3600),
        TimeControl("deadline", 259200),
    ],
)
def test_a_controls_dict_is_read_back_as_the_control(control: TimeControl) -> None:
    assert control_field({"time_control": control.as_dict()}) == control


def test_a_seek_without_a_control_has_no_clock() -> None:
    assert control_field({}) is None
    assert control_field({"time_control": None}) is None


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ({"kind": "fischer", "base": 1, "increment": 0}, TimeControl("fischer", 1, 0)),
        (
            {"kind": "fischer", "base": DAYS_30, "increment": 3600},
            TimeControl("fischer", DAYS_30, 3600),
        ),
        ({"kind": "fischer", "base": 300.0, "increment": 2.0}, TimeControl("fischer", 300, 2)),
        ({"kind": "deadline", "per_move": 10}, TimeControl("deadline", 10)),
        ({"kind": "deadline", "per_move": DAYS_30}, TimeControl("deadline", DAYS_30)),
    ],
)
def test_controls_at_their_bounds_and_whole_floats_are_read(
    given: object, read: TimeControl
) -> None:
    control = control_field({"time_control": given})
    assert control == read
    assert control is not None and type(control.base) is int and type(control.increment) is int


@pytest.mark.parametrize(
    "given",
    [
        {"kind": "fischer", "base": 0, "increment": 0},
        {"kind": "fischer", "base": DAYS_30 + 1, "increment": 0},
        {"kind": "fischer", "base": 300, "increment": -1},
        {"kind": "fischer", "base": 300, "increment": 3601},
        {"kind": "fischer", "base": 300.5, "increment": 0},
        {"kind": "fischer", "base": True, "increment": 0},
        {"kind": "fischer", "base": "300", "increment": 0},
        {"kind": "fischer", "base": float("inf"), "increment": 0},
        {"kind": "fischer", "base": 300},
        {"kind": "fischer", "base": 300, "increment": 0, "per_move": 10},
        {"kind": "deadline", "per_move": 9},
        {"kind": "deadline", "per_move": DAYS_30 + 1},
        {"kind": "deadline", "base": 60},
        {"kind": "bronstein", "base": 300, "increment": 3},
        {"base": 300, "increment": 3},
        {},
        "fischer:300:3",
        [300, 3],
        300,
    ],
)
def test_a_malformed_control_is_refused_with_the_rule(given: Any) -> None:
    with pytest.raises(RelayError) as caught:
        control_field({"time_control": given})
    assert (caught.value.code, caught.value.status) == ("request/invalid", 400)
    assert caught.value.message.startswith(BAD_CONTROL)
    assert repr(given) in caught.value.message


@pytest.mark.parametrize("key", [KEY, "a" * 32, "Z_-9" * 32, None])
def test_a_player_key_of_32_to_128_url_safe_characters_is_read(key: str | None) -> None:
    assert player_field({"player": key}) == key
    assert player_field({}) is None


@pytest.mark.parametrize("key", ["a" * 31, "a" * 129, "a" * 31 + "!", "a" * 31 + "é", "", 5, True])
def test_any_other_player_key_is_refused(key: object) -> None:
    with pytest.raises(RelayError) as caught:
        player_field({"player": key})
    assert (caught.value.code, caught.value.message) == ("request/invalid", BAD_PLAYER)


@pytest.mark.parametrize(
    "contact", ["mailto:ann@example.org", "x", "ü" * CONTACT_MOST, "https://h.example/?a=1 b"]
)
def test_a_contact_handle_is_read_as_given(contact: str) -> None:
    assert contact_field({"contact": contact}) == contact
    assert contact_field({"contact": None}) is None


@pytest.mark.parametrize(
    "contact", ["", "x" * (CONTACT_MOST + 1), "a\nb", "a\x00", "a\x7f", "a\x85", "\x9f", 7]
)
def test_an_empty_overlong_or_control_character_contact_is_refused(contact: object) -> None:
    with pytest.raises(RelayError) as caught:
        contact_field({"contact": contact})
    assert caught.value.code == "request/invalid"
    assert "control character" in caught.value.message


def test_a_seeks_name_is_optional_trimmed_and_bounded() -> None:
    assert display_name_field({}) is None
    assert display_name_field({"name": None}) is None
    assert display_name_field({"name": "  Ann  "}) == "Ann"
    assert display_name_field({"name": "n" * NAME_MOST}) == "n" * NAME_MOST
    for wrong in ("n" * (NAME_MOST + 1), "   ", 5, "Ann\u200b", "Аnn"):  # the last: Cyrillic А
        error = refused(display_name_field, {"name": wrong})
        assert error.code == "request/invalid" and "name" in error.message


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

"""A seek's fields: its time control, player key, contact handle, display name and rating
range, each read and checked by the rules of relay.core (clock, players, table, rated)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from relay.core.clock import BASE, INCREMENT, PER_MOVE, TimeControl
from relay.core.errors import RelayError
from relay.core.players import CONTACT, CONTACT_MOST, PLAYER
from relay.core.rated import MOST_RATING, RatingRange
from relay.core.table import NAME_MOST
from relay.core.text_policy import display_name

__all__ = [
    "BAD_CONTACT",
    "BAD_CONTROL",
    "BAD_PLAYER",
    "BAD_RANGE",
    "RANGE_IN_ROOM",
    "RANGE_WITHOUT_PLAYER",
    "contact_field",
    "control_field",
    "display_name_field",
    "player_field",
    "range_field",
]

BAD_CONTROL = (
    "The field 'time_control' must be null (no clock), "
    '{"kind": "fischer", "base": B, "increment": I} with whole seconds '
    f"{BASE[0]} <= B <= {BASE[1]} and {INCREMENT[0]} <= I <= {INCREMENT[1]}, "
    f'or {{"kind": "deadline", "per_move": D}} with whole seconds {PER_MOVE[0]} <= D <= '
    f"{PER_MOVE[1]}"
)


def _within(value: object, bounds: tuple[int, int]) -> int | None:
    """Returns a whole number within bounds (1.0 is the whole number 1), else None."""
    if type(value) is float and value.is_integer():
        value = int(value)
    if type(value) is int and bounds[0] <= value <= bounds[1]:
        return value
    return None


def control_field(body: dict[str, Any]) -> TimeControl | None:
    """Returns a seek's 'time_control' field (None: no clock), or raises request/invalid."""
    value = body.get("time_control")
    if value is None:
        return None
    if isinstance(value, dict):
        kind = value.get("kind")
        if kind == "fischer" and set(value) == {"kind", "base", "increment"}:
            base = _within(value["base"], BASE)
            increment = _within(value["increment"], INCREMENT)
            if base is not None and increment is not None:
                return TimeControl("fischer", base, increment)
        if kind == "deadline" and set(value) == {"kind", "per_move"}:
            per_move = _within(value["per_move"], PER_MOVE)
            if per_move is not None:
                return TimeControl("deadline", per_move)
    raise RelayError("request/invalid", f"{BAD_CONTROL}; not {value!r}.")


BAD_PLAYER = "The field 'player' must be 32 to 128 random characters from A-Z a-z 0-9 _ -."

BAD_CONTACT = (
    f"The field 'contact' must be a string of 1 to {CONTACT_MOST} characters, none of them a "
    "control character (U+0000 to U+001F, U+007F to U+009F)."
)


def player_field(body: dict[str, Any]) -> str | None:
    """Returns a seek's 'player' field (None without one), or raises request/invalid."""
    value = body.get("player")
    if value is None:
        return None
    if not isinstance(value, str) or PLAYER.fullmatch(value) is None:
        raise RelayError("request/invalid", BAD_PLAYER)
    return value


def contact_field(body: dict[str, Any]) -> str | None:
    """Returns a seek's 'contact' field (None without one), or raises request/invalid."""
    value = body.get("contact")
    if value is None:
        return None
    if not isinstance(value, str) or CONTACT.fullmatch(value) is None:
        raise RelayError("request/invalid", f"{BAD_CONTACT} Not {value!r:.80}.")
    return value


def display_name_field(body: dict[str, Any]) -> str | None:
    """Returns a seek's display name (None without one), clean (relay.core.text_policy), or
    raises request/invalid."""
    value = body.get("name")
    return None if value is None else display_name(value, NAME_MOST)


BAD_RANGE = (
    "The field 'rating_range' must be an object with 'min' and/or 'max' (whole numbers "
    f"from 0 to {MOST_RATING}, min at most max), or with 'within' alone (a whole number "
    f"from 1 to {MOST_RATING}: your own rating plus or minus it)."
)

RANGE_WITHOUT_PLAYER = (
    "A seek with 'rating_range' needs 'player': a rating belongs to a player key."
)

RANGE_IN_ROOM = "A seek into a room takes no 'rating_range': the room already names the partner."


def _rating(value: object, least: int) -> bool:
    """Returns whether a range's bound is a whole number from `least` to MOST_RATING (JSON
    has one number type: 1400.0 is the whole number 1400)."""
    if type(value) is float and value.is_integer():
        value = int(value)
    return type(value) is int and least <= value <= MOST_RATING


def _int(value: Any) -> Any:
    """Returns a bound checked by _rating as an int (None stays None)."""
    return None if value is None else int(value)


def range_field(body: Mapping[str, Any]) -> RatingRange | None:
    """Returns a seek's 'rating_range' field (None without one), or raises request/invalid:
    `{"min": 1400, "max": 1700}` (either may be left out) or `{"within": 200}`."""
    value = body.get("rating_range")
    if value is None:
        return None
    bad = RelayError("request/invalid", f"{BAD_RANGE} Not {value!r:.80}.")
    if not isinstance(value, dict) or not value or set(value) - {"min", "max", "within"}:
        raise bad
    if body.get("player") is None:
        raise RelayError("request/invalid", RANGE_WITHOUT_PLAYER)
    if body.get("room") is not None:
        raise RelayError("request/invalid", RANGE_IN_ROOM)
    if "within" in value:
        if len(value) > 1 or not _rating(value["within"], 1):
            raise bad
        return RatingRange(within=int(value["within"]))
    least, most = value.get("min"), value.get("max")
    if (
        (least is None and most is None)
        or not (least is None or _rating(least, 0))
        or not (most is None or _rating(most, 0))
        or (least or 0) > (MOST_RATING if most is None else most)
    ):
        raise bad
    return RatingRange(_int(least), _int(most))

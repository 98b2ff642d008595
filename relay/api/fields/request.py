"""The request itself, whatever server carries it: its JSON body, its seat token, and the
whole numbers and identifiers its body and query name."""

from __future__ import annotations

from typing import Any

import orjson

from relay.core import patterns
from relay.core.errors import RelayError
from relay.core.players import NOT_A_PLAYER_KEY, PLAYER

__all__ = [
    "MAX_WHOLE",
    "bearer",
    "bool_field",
    "identifier_field",
    "int_field",
    "json_body",
    "query_int",
    "query_seconds",
    "require_bearer",
    "require_player",
]

NAME = patterns.NAME
"""Game keys, versions and room names (relay.core.patterns.NAME_TEXT)."""

NOT_JSON = "Send the body as JSON with 'Content-Type: application/json', not {!r}."
NOT_OBJECT = "The body must be a JSON object, not {}."
BAD_AUTH = "The Authorization header must be 'Bearer <token>'."
BAD_BOOL = "The field {!r} must be true or false, not {!r}."


def json_body(content_type: str, raw: bytes) -> dict[str, Any]:
    """Returns a body as a JSON object, or raises a request/... error."""
    if content_type != "application/json":
        raise RelayError("request/content_type", NOT_JSON.format(content_type))
    if not raw:
        return {}
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise RelayError("request/bad_json", f"The body is not valid JSON: {exc}.") from None
    if not isinstance(body, dict):
        raise RelayError("request/invalid", NOT_OBJECT.format(type(body).__name__))
    return body


def bearer(header: str | None) -> str | None:
    """Returns the token of an 'Authorization: Bearer <token>' header; None without one."""
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise RelayError("auth/required", BAD_AUTH)
    return token


def require_bearer(header: str | None) -> str:
    """Returns the seat token, which the call requires."""
    token = bearer(header)
    if token is None:
        raise RelayError("auth/required")
    return token


def require_player(header: str | None) -> str:
    """Returns the bearer's player key, which the call requires, checked before any other
    work: 401 auth/required without one, 403 auth/bad_token for one not of a key's shape."""
    player = require_bearer(header)
    if PLAYER.fullmatch(player) is None:
        raise RelayError("auth/bad_token", NOT_A_PLAYER_KEY)
    return player


def identifier_field(
    body: dict[str, Any], key: str, *, required: bool, empty: bool = False
) -> str | None:
    """Returns a game key, version or room name field, checked against NAME ('' allowed
    where empty is true)."""
    value = body.get(key)
    if empty and value == "":
        return ""
    if value is None:
        if required:
            raise RelayError("request/invalid", f"The field {key!r} is required.")
        return None
    if not isinstance(value, str) or NAME.fullmatch(value) is None:
        raise RelayError(
            "request/invalid",
            f"The field {key!r} must be 1 to 64 letters, digits, '.', '_' or '-', not {value!r}.",
        )
    return value


MAX_WHOLE = 10**18 - 1
"""The largest whole number a field or parameter takes (18 digits: far beyond any match)."""


def bool_field(body: dict[str, Any], key: str, default: bool | None = None) -> bool:
    """Returns a true-or-false field (`default` when it is absent and one is given); raises
    request/invalid for anything else."""
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise RelayError("request/invalid", BAD_BOOL.format(key, value))
    return value


def int_field(body: dict[str, Any], key: str) -> int:
    """Returns a required whole-number field, 0 to MAX_WHOLE; JSON has one number type, so
    1.0 is the whole number 1, as JSON Schema's 'integer' says."""
    value = body.get(key)
    if type(value) is float and value.is_integer():
        value = int(value)
    if type(value) is not int or not 0 <= value <= MAX_WHOLE:
        raise RelayError(
            "request/invalid",
            f"The field {key!r} must be a whole number >= 0 (at most 18 digits), not {value!r}.",
        )
    return value


def query_int(raw: str | None, key: str, default: int) -> int:
    """Returns a non-negative integer query parameter's value."""
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
        raise RelayError(
            "request/invalid", f"The parameter {key!r} must be a whole number >= 0, not {raw!r}."
        )
    return int(raw)


def query_seconds(raw: str, key: str) -> float:
    """Returns a duration query parameter: seconds >= 0, decimals allowed ('2', '0.5')."""
    whole, _, fraction = raw.partition(".")
    if not (whole.isascii() and whole.isdigit() and len(whole) <= 9) or not (
        fraction == "" or (fraction.isascii() and fraction.isdigit() and len(fraction) <= 6)
    ):
        raise RelayError(
            "request/invalid", f"The parameter {key!r} must be seconds >= 0, not {raw!r}."
        )
    return float(raw)

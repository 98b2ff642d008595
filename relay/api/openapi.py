"""The relay's OpenAPI 3 document, served at /v1/openapi.json."""

from __future__ import annotations

import functools
from typing import Any

import orjson

from relay.api.fields.request import MAX_WHOLE
from relay.api.moderation_schemas import (
    MODERATION_REPLIES,
    MODERATION_SCHEMAS,
    PUBLIC_ID_SCHEMA,
)
from relay.api.routes import JSON, ROUTES, Route
from relay.api.table_schemas import NAME, TABLE_REPLIES, TABLE_SCHEMAS, UNDO_EVENT
from relay.core.clock import BASE, INCREMENT, PER_MOVE
from relay.core.errors import CODES
from relay.core.patterns import KEY_TEXT, NAME_TEXT, anchored
from relay.core.players import CONTACT, CONTACT_MOST, LISTED
from relay.core.rated import MOST_RATING
from relay.core.reasons import ENDED_REASONS
from relay.core.standings import BOARD_LIMIT, HISTORY
from relay.core.verdicts import DETAIL_MAX

__all__ = ["document", "openapi"]

_NAME = {"type": "string", "pattern": anchored(NAME_TEXT)}
_NULL = {"type": "null"}
_SEAT = {"type": "integer", "enum": [0, 1]}
_AFTER = {"type": "integer", "minimum": 0, "maximum": MAX_WHOLE}
_SECONDS = {
    "type": "string",
    "pattern": r"^[0-9]{1,9}(\.[0-9]{0,6})?$",
    "description": "Seconds, in decimal digits with at most 6 after the point ('2', '0.5').",
}
_TOKEN = {
    "type": "string",
    "pattern": anchored(KEY_TEXT),
    "description": "The seeker's own seat token, drawn at random: a retried seek is answered "
    "the same seat.",
}


_LEFT = {"type": "number", "minimum": 0, "description": "Seconds left (3 decimals)."}
_VERDICT = {
    "winner": {
        "enum": [0, 1, None],
        "description": "Only when a referee decided: the winning seat, null for a draw.",
    },
    "at": {
        "type": "integer",
        "description": "The event disputed, at fault, or ending the game.",
    },
    "detail": {
        "type": "string",
        "maxLength": DETAIL_MAX,
        "description": "The referee's reason, or the disputing client's.",
    },
}
"""The fields an ended event has after its seat when it settles a dispute or a verdict."""

_LEFTS = {"type": "array", "items": _LEFT, "minItems": 2, "maxItems": 2}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for status in statuses:
        codes = sorted(code for code, (st, _) in CODES.items() if st == status)
        answers[str(status)] = _json(_ref("Error"), "Error: " + ", ".join(codes))
    return answers


_MATCH_PARAM = {
    "name": "match",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
}

_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string", "enum": sorted(CODES)},
                    "message": {"type": "string"},
                },
            }
        },
    },
    "SeekBody": {
        "type": "object",
        "required": ["game"],
        "properties": {
            "game": _NAME,
            # null, like a missing field, means none.
            "version": {"anyOf": [_NAME, {"const": ""}, _NULL]},
            "room": {"anyOf": [_NAME, _NULL]},
            "token": {"anyOf": [_TOKEN, _NULL]},
            "public": {"type": "boolean", "description": "List the seek in the lobby."},
            "time_control": {"anyOf": [_ref("TimeControl"), _NULL]},
            "player": {
                "anyOf": [_TOKEN, _NULL],
                "description": "The seeker's player key: a second key to the seat, which "
                "lists it under GET /v1/player/matches; never paired with itself.",
            },
            "contact": {
                "anyOf": [{"type": "string", "pattern": f"^{CONTACT.pattern}$"}, _NULL],
                "description": "An opaque handle the relay hands to its turn notices in "
                "matches with a per-move deadline; never shown in any answer.",
            },
        },
    },
    "TurnDelivery": {
        "type": "object",
        "required": ["id", "contact", "turns"],
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
            "contact": {"type": "string", "minLength": 1, "maxLength": CONTACT_MOST},
            "turns": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["match", "game", "seat", "seq", "due"],
                    "properties": {
                        "match": {"type": "string"},
                        "game": _NAME,
                        "seat": _SEAT,
                        "seq": {"type": "integer", "minimum": 1},
                        "due": {
                            "type": "number",
                            "description": "When the turn's time runs out (Unix seconds).",
                        },
                    },
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    },
    "TimeControl": {
        "description": "Kept by the relay; seekers of different controls never meet.",
        "oneOf": [
            {
                "type": "object",
                "required": ["kind", "base", "increment"],
                "additionalProperties": False,
                "properties": {
                    "kind": {"const": "fischer"},
                    "base": {"type": "integer", "minimum": BASE[0], "maximum": BASE[1]},
                    "increment": {
                        "type": "integer",
                        "minimum": INCREMENT[0],
                        "maximum": INCREMENT[1],
                    },
                },
            },
            {
                "type": "object",
                "required": ["kind", "per_move"],
                "additionalProperties": False,
                "properties": {
                    "kind": {"const": "deadline"},
                    "per_move": {
                        "type": "integer",
                        "minimum": PER_MOVE[0],
                        "maximum": PER_MOVE[1],
                    },
                },
            },
        ],
    },
    "RematchBody": {
        "type": "object",
        "required": ["offer"],
        "properties": {"offer": {"type": "boolean"}},
    },
    "Rematch": {
        "type": "object",
        "required": ["version", "state", "offers", "by", "match", "first"],
        "properties": {
            "version": {"type": "integer", "minimum": 0},
            "state": {
                "type": "string",
                "enum": ["none", "offered", "accepted", "declined", "lapsed"],
            },
            "offers": {"type": "array", "items": {"type": "boolean"}, "minItems": 2},
            "by": {"type": ["integer", "null"], "enum": [0, 1, None]},
            "match": {"type": ["string", "null"]},
            "first": {"type": ["integer", "null"], "enum": [0, 1, None]},
        },
    },
    "LobbyEntry": {
        "type": "object",
        "required": [
            "match",
            "game",
            "version",
            "room",
            "status",
            "moves",
            "since",
            "time_control",
        ],
        "properties": {
            "match": {"type": "string"},
            "game": {"type": "string"},
            "version": {"type": "string"},
            "room": {"type": ["string", "null"]},
            "status": {"type": "string", "enum": ["waiting", "playing", "ending", "finished"]},
            "moves": {"type": "integer", "minimum": 0},
            "since": {"type": "number"},
            "time_control": {"anyOf": [_ref("TimeControl"), _NULL]},
        },
    },
    "Lobby": {
        "type": "object",
        "required": ["game", "version", "open", "live", "recent"],
        "properties": {
            "game": {"type": "string"},
            "version": {"type": "integer", "minimum": 0},
            "open": {"type": "array", "items": _ref("LobbyEntry")},
            "live": {"type": "array", "items": _ref("LobbyEntry")},
            "recent": {"type": "array", "items": _ref("LobbyEntry")},
        },
    },
    "MoveBody": {
        "type": "object",
        "required": ["after", "move"],
        "properties": {
            "after": _AFTER,
            "move": {"type": "string"},
            "end": {"type": "boolean"},
            "claim": {
                "type": "string",
                "enum": ["win", "draw", "loss"],
                "description": "With end: true only: what the game ended in for the mover, "
                "rated once the partner agrees (docs/ratings.md).",
            },
        },
        "if": {"required": ["claim"]},
        "then": {"required": ["end"], "properties": {"end": {"const": True}}},
    },
    "AfterBody": {"type": "object", "required": ["after"], "properties": {"after": _AFTER}},
    "ConfirmBody": {
        "type": "object",
        "required": ["after"],
        "properties": {
            "after": _AFTER,
            "agree": {"type": "boolean"},
            "reason": {
                "type": ["string", "null"],
                "maxLength": DETAIL_MAX,
                "pattern": "^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$",
                "description": "With agree: false, why the play is disputed, for the partner, "
                "the log and the record: at most 200 characters once trimmed, no control "
                "character, no bidirectional override or isolate (docs/protocol.md#verdicts).",
            },
        },
    },
    "AnyBody": {"type": "object"},
    "Cancelled": {
        "type": "object",
        "required": ["cancelled"],
        "properties": {"cancelled": {"const": True}},
    },
    "Health": {"type": "object", "properties": {"ok": {"const": True}}},
    "Game": {
        "type": "object",
        "required": ["name", "title", "summary", "page", "view", "computer", "referee"],
        "properties": {
            "name": {
                "type": "string",
                "pattern": "^[a-z][a-z0-9_]{0,31}$",
                "description": "The game key its seeks name.",
            },
            "title": {"type": "string"},
            "summary": {"type": "string"},
            "page": {
                "type": "string",
                "description": "Its page, relative to the relay's root "
                "(where the relay serves its pages): 'connect4.html'.",
            },
            "view": {
                "type": ["string", "null"],
                "description": "Its page module that draws "
                "its board for the shared pages (the replay), relative to the relay's "
                "root; null when it has none.",
            },
            "computer": {
                "type": "boolean",
                "description": "Whether its page offers a game "
                "against the computer (<page>#computer).",
            },
            "referee": {"type": "boolean", "description": "Whether its package ships a referee."},
        },
    },
    "Games": {
        "type": "object",
        "required": ["games"],
        "properties": {"games": {"type": "array", "items": _ref("Game")}},
    },
    "Ticket": {
        "type": "object",
        "required": ["match", "seat", "token"],
        "properties": {
            "match": {"type": "string"},
            "seat": _SEAT,
            "token": {"type": "string", "description": "Secret; send as Bearer token."},
        },
    },
    "Seq": {
        "type": "object",
        "required": ["seq"],
        "properties": {"seq": {"type": "integer", "minimum": 1}},
    },
    "SeqEvents": {
        "type": "object",
        "required": ["seq"],
        "properties": {
            "seq": {"type": "integer", "minimum": 1},
            "events": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}},
        },
    },
    "Event": {
        "oneOf": [
            {
                "type": "object",
                "required": ["seq", "type", "first"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "started"},
                    "first": _SEAT,
                    "time_control": _ref("TimeControl"),
                    "left": _LEFTS,
                },
            },
            {
                "type": "object",
                "required": ["seq", "type", "seat", "move", "end"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "move"},
                    "seat": _SEAT,
                    "move": {"type": "string"},
                    "end": {"type": "boolean"},
                    "left": _LEFT,
                    "claim": {"type": "string", "enum": ["win", "draw", "loss"]},
                },
            },
            {
                "type": "object",
                "required": ["seq", "type", "seat"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "pass"},
                    "seat": _SEAT,
                    "left": _LEFT,
                },
            },
            {
                "type": "object",
                "required": ["seq", "type", "reason", "seat"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "ended"},
                    "reason": {
                        "type": "string",
                        "enum": list(ENDED_REASONS),
                    },
                    "seat": _SEAT,
                    **_VERDICT,
                },
            },
        ]
    },
    "Events": {
        "type": "object",
        "required": ["events"],
        "properties": {"events": {"type": "array", "items": _ref("Event")}},
    },
    "MatchInfo": {
        "type": "object",
        "required": ["match", "game", "version", "room", "status", "turn", "first", "last"],
        "properties": {
            "match": {"type": "string"},
            "game": {"type": "string"},
            "version": {"type": "string"},
            "room": {"type": ["string", "null"]},
            "status": {
                "type": "string",
                "enum": ["waiting", "playing", "ending", "finished", "expired"],
            },
            "turn": {"type": ["integer", "null"], "enum": [0, 1, None]},
            "first": {"type": ["integer", "null"], "enum": [0, 1, None]},
            "last": {"type": "integer", "minimum": 0},
            "time_control": {"anyOf": [_ref("TimeControl"), _NULL]},
            "left": {"anyOf": [_LEFTS, _NULL]},
        },
    },
}


_SCHEMAS.update(TABLE_SCHEMAS)
_SCHEMAS.update(MODERATION_SCHEMAS)
_SCHEMAS["Event"]["oneOf"].append(UNDO_EVENT)
_SCHEMAS["Events"]["properties"]["table"] = _ref("Table")
_SCHEMAS["SeqEvents"]["properties"]["table"] = _ref("Table")
_SCHEMAS["SeekBody"]["properties"]["name"] = NAME
_BOUND = {"type": "integer", "minimum": 0, "maximum": MOST_RATING}
_SCHEMAS["SeekBody"]["properties"]["rating_range"] = {
    "description": "Opponents within a rating range (needs 'player', takes no 'room'): "
    "'min' and/or 'max' (min at most max), or 'within' points of your own rating "
    "(docs/ratings.md).",
    "oneOf": [
        {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": False,
            "properties": {"min": _BOUND, "max": _BOUND},
        },
        {
            "type": "object",
            "required": ["within"],
            "additionalProperties": False,
            "properties": {"within": {**_BOUND, "minimum": 1}},
        },
    ],
}
_SCHEMAS["LobbyEntry"]["properties"]["rating"] = {
    "type": ["string", "null"],
    "description": "Open entries: the waiting seeker's rating in the game as shown ('1500?', "
    "'1623'); null without a player key, or with --no-ratings.",
}
_SCHEMAS["LobbyEntry"]["properties"]["names"] = {
    "type": "array", "items": NAME, "minItems": 2, "maxItems": 2
}  # fmt: skip
_SCHEMAS["MatchInfo"]["properties"]["names"] = {
    "type": "array", "items": NAME, "minItems": 2, "maxItems": 2
}  # fmt: skip

_SCHEMAS["PlayerMatch"] = {
    "type": "object",
    "required": [
        "match", "game", "version", "room", "seat", "status", "turn", "your_turn",
        "time_control", "left", "last",
    ],
    "properties": {
        **_SCHEMAS["MatchInfo"]["properties"],
        "seat": _SEAT,
        "your_turn": {"type": "boolean"},
        "result": {
            "type": "object",
            "required": ["reason", "seat"],
            "properties": {"reason": {"type": "string"}, "seat": _SEAT, **_VERDICT},
            "description": "Once finished: the ended event's reason and seat (and its winner, "
            "at and detail when it has them).",
        },
    },
}  # fmt: skip
_SCHEMAS["PlayerMatch"]["properties"]["rating"] = {
    "type": "object",
    "required": ["before", "after"],
    "properties": {"before": {"type": "number"}, "after": {"type": "number"}},
    "description": "Once the match is rated: the key's rating before and after it.",
}
_SCHEMAS["MatchInfo"]["properties"]["rated"] = {
    "enum": [True, False, "pending", "voided"],
    "description": "Whether the match was rated ('pending': ended, its rating not yet written; "
    "'voided': the host took its rating back).",
}
_SCHEMAS["MatchInfo"]["properties"]["players"] = {
    "type": "array",
    "items": {"anyOf": [PUBLIC_ID_SCHEMA, _NULL]},
    "minItems": 2,
    "maxItems": 2,
    "description": "Each seat's player key's public id (null: it sat without one).",
}
_SCHEMAS["MatchInfo"]["properties"]["ratings"] = {
    "type": "array",
    "minItems": 2,
    "maxItems": 2,
    "items": _SCHEMAS["PlayerMatch"]["properties"]["rating"],
    "description": "Once rated: each seat's rating before and after the match.",
}
_RATING = {"type": "number", "minimum": 0}
_SCHEMAS["RatingEntry"] = {
    "type": "object",
    "required": ["match", "at", "score", "before", "after", "opponent"],
    "properties": {
        "match": {"type": "string"},
        "at": {"type": "number"},
        "score": {"type": "number", "enum": [0, 0.5, 1]},
        "before": _RATING,
        "after": _RATING,
        "opponent": {**_RATING, "description": "The opponent's rating before the match."},
    },
}
_SCHEMAS["GameRating"] = {
    "type": "object",
    "required": [
        "game", "rating", "deviation", "games", "provisional", "shown", "at", "history",
    ],
    "properties": {
        "game": _NAME,
        "rating": _RATING,
        "deviation": _RATING,
        "games": {"type": "integer", "minimum": 0},
        "provisional": {"type": "boolean"},
        "shown": {"type": "string", "description": "As players read it: '1500?', '1623'."},
        "at": {"type": ["number", "null"]},
        "history": {"type": "array", "maxItems": HISTORY, "items": _ref("RatingEntry")},
    },
}  # fmt: skip
_SCHEMAS["PlayerRatings"] = {
    "type": "object",
    "required": ["ratings"],
    "properties": {"ratings": {"type": "array", "items": _ref("GameRating")}},
}
_SCHEMAS["LeaderboardRow"] = {
    "type": "object",
    "required": ["rank", "id", "name", "rating", "deviation", "games", "shown"],
    "properties": {
        "rank": {"type": "integer", "minimum": 1},
        "id": {"type": "string", "description": "The key's public handle (docs/ratings.md)."},
        "name": NAME,
        "rating": _RATING,
        "deviation": _RATING,
        "games": {"type": "integer", "minimum": 0},
        "shown": {"type": "string"},
    },
}
_SCHEMAS["Leaderboard"] = {
    "type": "object",
    "required": ["game", "players"],
    "properties": {
        "game": _NAME,
        "players": {"type": "array", "maxItems": BOARD_LIMIT, "items": _ref("LeaderboardRow")},
    },
}
_SCHEMAS["PlayerMatches"] = {
    "type": "object",
    "required": ["matches"],
    "properties": {"matches": {"type": "array", "maxItems": LISTED, "items": _ref("PlayerMatch")}},
}

_QUERY: dict[str, dict[str, Any]] = {
    "after": _AFTER,
    "wait": _SECONDS,
    "game": _NAME,
    "limit": {"type": "integer", "minimum": 1, "maximum": BOARD_LIMIT},
    "table": {**_AFTER, "description": "The table version the poller has: the answer also "
              "carries the table (key 'table') when its version is above it, and a table "
              "change ends the hold."},
    "chat": {**_AFTER, "description": "The number of the last chat line the reader has: "
             "the table carries the lines above it."},
}  # fmt: skip
"""The schema of each query parameter a route may read."""

_REQUIRED_QUERY = frozenset({("lobby", "game")})
"""The query parameters a route cannot do without, by operation (the lobby's game)."""

_REPLIES = {
    "Ticket": "Seated.",
    "MatchInfo": "The match.",
    "Events": "Events, possibly none.",
    "SeqEvents": "Accepted: its event number, and with ?wait=S the events after it.",
    "Seq": "Accepted (or the same post accepted before): its event number.",
    "Cancelled": "Cancelled.",
    "Rematch": "The rematch: its version, state, offers and, once accepted, the new match.",
    "Lobby": "The game's lobby at its version.",
    "PlayerMatches": "The key's matches ([] for a key the relay does not know).",
    "PlayerRatings": "The key's ratings ([] for a key the relay does not know, or with "
    "--no-ratings).",
    "Leaderboard": "The game's established ratings, best first ([] with --no-ratings).",
    "Health": "Alive.",
    "Games": "Every game hosted, by name.",
    **TABLE_REPLIES,
    **MODERATION_REPLIES,
}
"""What a successful answer of each reply schema says."""

_OTHER_REPLIES = {
    "metrics": {"description": "Text format 0.0.4.", "schema": {"type": "string"}},
    "openapi": {"description": "OpenAPI 3.1.", "schema": {"type": "object"}},
    "record": {
        "description": "JSON Lines: a header object (record, match, game, version, room, "
        "first, time_control, status, result, events, names, chat), then one line per event, "
        "then one line per chat line the reader may read ({type: 'chat', n, seat, text, at, "
        "time}).",
        "schema": {"type": "string"},
    },
}
"""The successful answers of the routes with no reply schema, by operation."""

_SECURITY: dict[str, list[dict[str, list[str]]]] = {
    "required": [{"seat": []}],
    "optional": [{}, {"seat": []}],
    "player": [{"player": []}],
    "admin": [{"admin": []}],
}


def _seat_links() -> dict[str, Any]:
    """Returns the links from a seek's ticket to what its seat can do next (OpenAPI links)."""
    links: dict[str, Any] = {}
    for row in ROUTES:
        if row.seat == "required" or row.operation == "events":
            links[row.operation] = {
                "operationId": row.operation,
                "parameters": {
                    "path.match": "$response.body#/match",
                    "header.Authorization": "Bearer {$response.body#/token}",
                },
            }
        elif "{match}" in row.path:
            links[row.operation] = {
                "operationId": row.operation,
                "parameters": {"match": "$response.body#/match"},
            }
    return links


def _operation(row: Route) -> dict[str, Any]:
    """Returns the OpenAPI operation of a route of the table."""
    if row.reply is not None:
        ok = _json(_ref(row.reply), _REPLIES[row.reply])
    else:
        other = _OTHER_REPLIES[row.operation]
        ok = {
            "description": other["description"],
            "content": {row.content_type.split(";")[0]: {"schema": other["schema"]}},
        }
    operation: dict[str, Any] = {"summary": row.summary, "operationId": row.operation}
    parameters = [_MATCH_PARAM] if "{match}" in row.path else []
    if "{game}" in row.path:
        parameters = [{**_MATCH_PARAM, "name": "game", "schema": _NAME}]
    parameters += [
        {"name": name, "in": "query", "schema": _QUERY[name]}
        | ({"required": True} if (row.operation, name) in _REQUIRED_QUERY else {})
        for name in row.query
    ]
    if parameters:
        operation["parameters"] = parameters
    if row.seat in _SECURITY:
        operation["security"] = _SECURITY[row.seat]
    if row.body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {JSON: {"schema": _ref(row.body)}},
        }
    operation["responses"] = {str(row.ok): ok, **_errors(*row.errors)}
    if row.operation == "seek":
        operation["responses"][str(row.ok)]["links"] = _seat_links()
    return operation


def document() -> dict[str, Any]:
    """Returns the OpenAPI 3.1 document of protocol v1, built from the route table."""
    paths: dict[str, dict[str, Any]] = {}
    for row in ROUTES:
        paths.setdefault(row.path, {})[row.method.lower()] = _operation(row)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "movewire relay",
            "version": "1",
            "description": "Pairs two players and relays opaque move texts over HTTP long-poll.",
        },
        "components": {
            "schemas": _SCHEMAS,
            "securitySchemes": {
                "seat": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token, or the player key the seat was taken with.",
                },
                "player": {"type": "http", "scheme": "bearer", "description": "A player key."},
                "admin": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The host's admin secret (--admin-secret-file).",
                },
            },
        },
        "paths": paths,
        "webhooks": {"yourTurn": _YOUR_TURN},
    }


_YOUR_TURN = {
    "post": {
        "summary": "A correspondence player got the turn (with --webhook; docs/hosting.md)",
        "parameters": [
            {
                "name": "webhook-id",
                "in": "header",
                "required": True,
                "schema": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
                "description": "The delivery's id, the same on each attempt (Standard "
                "Webhooks); the body's id.",
            },
            {
                "name": "webhook-timestamp",
                "in": "header",
                "required": True,
                "schema": {"type": "string", "pattern": "^[0-9]+$"},
                "description": "The Unix seconds the attempt was signed at.",
            },
            {
                "name": "webhook-signature",
                "in": "header",
                "required": True,
                "schema": {
                    "type": "string",
                    "pattern": "^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$",
                },
                "description": "'v1,' and the base64 of HMAC-SHA256 over "
                "'<webhook-id>.<webhook-timestamp>.<raw body>', one per secret the relay "
                "has (its key: the base64 after whsec_, else the secret's bytes), separated "
                "by spaces.",
            },
        ],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _ref("TurnDelivery")}},
        },
        "responses": {
            "200": {
                "description": "Received (any 2xx). 429 and 5xx are retried; other 4xx "
                "are refusals, not retried; a 3xx is not followed, and not retried."
            },
        },
    }
}


@functools.cache
def openapi() -> bytes:
    """Returns the document as JSON bytes (built once)."""
    return orjson.dumps(document())

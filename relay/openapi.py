"""The relay's OpenAPI 3 document, served at /v1/openapi.json."""

from __future__ import annotations

import functools
from typing import Any

import orjson

from relay.errors import CODES
from relay.fields import MAX_WHOLE

__all__ = ["document", "openapi"]

_NAME = {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"}
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
    "pattern": "^[A-Za-z0-9_-]{32,128}$",
    "description": "The seeker's own seat token, drawn at random: a retried seek is answered "
    "the same seat.",
}


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


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


_COMMON = (400, 413, 415, 429, 503)
_WRITE = (*_COMMON, 401, 403, 404, 409, 410)

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
                },
            },
            {
                "type": "object",
                "required": ["seq", "type", "seat"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "pass"},
                    "seat": _SEAT,
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
                        "enum": ["agreed", "disputed", "unconfirmed", "resigned", "abandoned"],
                    },
                    "seat": _SEAT,
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
        },
    },
}


def _write(
    summary: str,
    body: dict[str, Any] | None,
    ok: dict[str, Any],
    query: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "summary": summary,
        "parameters": [_MATCH_PARAM, *(query or [])],
        "security": [{"seat": []}],
        "responses": {"200": ok, **_errors(*_WRITE)},
    }
    if body is not None:
        operation["requestBody"] = _body(body)
    return operation


_OPERATION_IDS = {
    ("/v1/seek", "post"): "seek",
    ("/v1/matches/{match}", "get"): "matchInfo",
    ("/v1/matches/{match}/events", "get"): "events",
    ("/v1/matches/{match}/moves", "post"): "move",
    ("/v1/matches/{match}/pass", "post"): "pass",
    ("/v1/matches/{match}/confirm", "post"): "confirm",
    ("/v1/matches/{match}/resign", "post"): "resign",
    ("/v1/matches/{match}/cancel", "post"): "cancel",
    ("/healthz", "get"): "healthz",
    ("/metrics", "get"): "metrics",
    ("/v1/openapi.json", "get"): "openapi",
}


def _seat_links() -> dict[str, Any]:
    """Returns the links from a seek's ticket to what its seat can do next (OpenAPI links)."""
    links: dict[str, Any] = {
        "matchInfo": {"operationId": "matchInfo", "parameters": {"match": "$response.body#/match"}}
    }
    for operation in ("events", "move", "pass", "confirm", "resign", "cancel"):
        links[operation] = {
            "operationId": operation,
            "parameters": {
                "path.match": "$response.body#/match",
                "header.Authorization": "Bearer {$response.body#/token}",
            },
        }
    return links


def document() -> dict[str, Any]:
    """Returns the OpenAPI 3.1 document of protocol v1."""
    doc = _paths_and_components()
    for (path, method), operation_id in _OPERATION_IDS.items():
        doc["paths"][path][method]["operationId"] = operation_id
    doc["paths"]["/v1/seek"]["post"]["responses"]["201"]["links"] = _seat_links()
    return doc


def _paths_and_components() -> dict[str, Any]:
    seq = _json(_ref("Seq"), "Accepted (or the same post accepted before): its event number.")
    after_only = {
        "type": "object",
        "required": ["after"],
        "properties": {"after": _AFTER},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "movewire relay",
            "version": "1",
            "description": "Pairs two players and relays opaque move texts over HTTP long-poll.",
        },
        "components": {
            "schemas": _SCHEMAS,
            "securitySchemes": {"seat": {"type": "http", "scheme": "bearer"}},
        },
        "paths": {
            "/v1/seek": {
                "post": {
                    "summary": "Take a seat in the oldest waiting match of the game, or open one.",
                    "requestBody": _body(
                        {
                            "type": "object",
                            "required": ["game"],
                            "properties": {
                                "game": _NAME,
                                # null, like a missing field, means none.
                                "version": {"anyOf": [_NAME, {"const": ""}, _NULL]},
                                "room": {"anyOf": [_NAME, _NULL]},
                                "token": {"anyOf": [_TOKEN, _NULL]},
                            },
                        }
                    ),
                    "responses": {
                        "201": _json(_ref("Ticket"), "Seated."),
                        **_errors(*_COMMON, 409),
                    },
                }
            },
            "/v1/matches/{match}": {
                "get": {
                    "summary": "Summary of a match.",
                    "parameters": [_MATCH_PARAM],
                    "responses": {
                        "200": _json(_ref("MatchInfo"), "The match."),
                        **_errors(404, 410),
                    },
                }
            },
            "/v1/matches/{match}/events": {
                "get": {
                    "summary": "Events numbered above 'after'; held up to the hold time.",
                    "parameters": [
                        _MATCH_PARAM,
                        {"name": "after", "in": "query", "schema": _AFTER},
                        {"name": "wait", "in": "query", "schema": _SECONDS},
                    ],
                    "security": [{}, {"seat": []}],
                    "responses": {
                        "200": _json(_ref("Events"), "Events, possibly none."),
                        **_errors(400, 401, 403, 404, 410, 429, 503),
                    },
                }
            },
            "/v1/matches/{match}/moves": {
                "post": _write(
                    "Relay a move text (any string); with ?wait=S, also wait for the reply.",
                    {
                        "type": "object",
                        "required": ["after", "move"],
                        "properties": {
                            "after": _AFTER,
                            "move": {"type": "string"},
                            "end": {"type": "boolean"},
                        },
                    },
                    _json(
                        _ref("SeqEvents"),
                        "Accepted: its event number, and with ?wait=S the events after it.",
                    ),
                    query=[{"name": "wait", "in": "query", "schema": _SECONDS}],
                )
            },
            "/v1/matches/{match}/pass": {
                "post": _write(
                    "Pass the turn back to the partner (no legal move, or a voluntary pass).",
                    after_only,
                    seq,
                )
            },
            "/v1/matches/{match}/confirm": {
                "post": _write(
                    "Agree or dispute that the partner's last move ended the game; the seat "
                    "to move may also dispute the partner's last move or pass (agree: false).",
                    {
                        "type": "object",
                        "required": ["after"],
                        "properties": {"after": _AFTER, "agree": {"type": "boolean"}},
                    },
                    seq,
                )
            },
            "/v1/matches/{match}/resign": {
                "post": _write("Resign: the match ends at once.", {"type": "object"}, seq)
            },
            "/v1/matches/{match}/cancel": {
                "post": _write(
                    "Withdraw a seek nobody has joined.",
                    None,
                    _json(
                        {
                            "type": "object",
                            "required": ["cancelled"],
                            "properties": {"cancelled": {"const": True}},
                        },
                        "Cancelled.",
                    ),
                )
            },
            "/healthz": {
                "get": {
                    "summary": "Liveness: 200 while the relay and its store answer.",
                    "responses": {
                        "200": _json(
                            {"type": "object", "properties": {"ok": {"const": True}}}, "Alive."
                        ),
                        **_errors(503),
                    },
                }
            },
            "/metrics": {
                "get": {
                    "summary": "Prometheus metrics.",
                    "responses": {
                        "200": {
                            "description": "Text format 0.0.4.",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        }
                    },
                }
            },
            "/v1/openapi.json": {
                "get": {
                    "summary": "This document.",
                    "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")},
                }
            },
        },
    }


@functools.cache
def openapi() -> bytes:
    """Returns the document as JSON bytes (built once)."""
    return orjson.dumps(document())

"""The relay's OpenAPI 3 document, served at /v1/openapi.json: built from the route table
(relay.api.routes) and the schemas (relay.api.schemas), each defined once there."""

from __future__ import annotations

import functools
from typing import Any

import orjson

from relay.api.routes import JSON, ROUTES, Route
from relay.api.schemas import REPLIES, SCHEMAS
from relay.api.schemas.common import ref
from relay.api.schemas.parameters import GAME, MATCH, QUERY, REQUIRED_QUERY
from relay.core.errors import CODES

__all__ = ["document", "openapi"]


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for status in statuses:
        codes = sorted(code for code, (st, _) in CODES.items() if st == status)
        answers[str(status)] = _json(ref("Error"), "Error: " + ", ".join(codes))
    return answers


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
        ok = _json(ref(row.reply), REPLIES[row.reply])
    else:
        other = _OTHER_REPLIES[row.operation]
        ok = {
            "description": other["description"],
            "content": {row.content_type.split(";")[0]: {"schema": other["schema"]}},
        }
    operation: dict[str, Any] = {"summary": row.summary, "operationId": row.operation}
    parameters = [MATCH] if "{match}" in row.path else []
    if "{game}" in row.path:
        parameters = [GAME]
    parameters += [
        {"name": name, "in": "query", "schema": QUERY[name]}
        | ({"required": True} if (row.operation, name) in REQUIRED_QUERY else {})
        for name in row.query
    ]
    if parameters:
        operation["parameters"] = parameters
    if row.seat in _SECURITY:
        operation["security"] = _SECURITY[row.seat]
    if row.body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {JSON: {"schema": ref(row.body)}},
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
            "schemas": SCHEMAS,
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
            "content": {"application/json": {"schema": ref("TurnDelivery")}},
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

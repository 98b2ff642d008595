"""The HTTP endpoints of protocol v1: thin handlers over the store."""

from __future__ import annotations

import math
import time

import orjson
from aiohttp import web

from relay.errors import RelayError
from relay.store import Action
from relay.web_request import (
    bearer,
    int_field,
    json_body,
    name_field,
    query_int,
    require_bearer,
)
from relay.web_state import CONFIG, HELD, LIFECYCLE, LIMITER, METRICS, STORE

__all__ = [
    "cancel",
    "confirm",
    "events",
    "healthz",
    "match_info",
    "metrics",
    "move",
    "pass_turn",
    "resign",
    "seek",
]

JSON = {"Content-Type": "application/json"}


def _json(data: object, status: int = 200) -> web.Response:
    return web.Response(body=orjson.dumps(data), status=status, headers=JSON)


async def seek(request: web.Request) -> web.Response:
    """POST /v1/seek: takes a seat in a waiting match, or opens one."""
    now = time.time()
    wait = request.app[LIMITER].take(request.remote or "", now)
    if wait:
        raise RelayError("limit/seeks", retry_after=wait)
    body = await json_body(request)
    game = name_field(body, "game", required=True)
    assert game is not None
    version = name_field(body, "version", required=False) or ""
    room = name_field(body, "room", required=False)
    ticket = await request.app[STORE].seek(game, version, room, now)
    return _json({"match": ticket.match, "seat": ticket.seat, "token": ticket.token}, 201)


async def events(request: web.Request) -> web.Response:
    """GET /v1/matches/{match}/events?after=N: the log above N, held until there is some."""
    app = request.app
    store = app[STORE]
    match = request.match_info["match"]
    after = query_int(request, "after", 0)
    hold = app[CONFIG].hold
    if "wait" in request.query:
        hold = min(hold, float(query_int(request, "wait", 0)))
    seat, found = await store.poll(match, bearer(request), after, time.time())
    if not found and hold > 0:
        if app[LIFECYCLE].closing:
            raise RelayError("server/shutting_down", retry_after=1.0)
        if seat is None:
            found = await store.wait(match, after, hold)
        else:
            found = await _wait_as_seat(request, match, seat, after, hold)
    return web.Response(body=b'{"events":[' + b",".join(found) + b"]}", headers=JSON)


async def _wait_as_seat(
    request: web.Request, match: str, seat: int, after: int, hold: float
) -> list[bytes]:
    app = request.app
    held = app[HELD]
    key = (match, seat)
    count = held.get(key, 0)
    if count >= app[CONFIG].polls_per_seat:
        raise RelayError("limit/polls", retry_after=1.0)
    held[key] = count + 1
    app[METRICS].held_polls.inc()
    try:
        return await app[STORE].wait(match, after, hold)
    finally:
        app[METRICS].held_polls.dec()
        left = held[key] - 1
        if left:
            held[key] = left
        else:
            del held[key]


async def move(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/moves: relays a move text, applied once."""
    token = require_bearer(request)
    body = await json_body(request)
    after = int_field(body, "after")
    text = body.get("move")
    if not isinstance(text, str):
        raise RelayError("request/invalid", f"The field 'move' must be a string, not {text!r}.")
    if len(text) > request.app[CONFIG].max_move:
        raise RelayError(
            "move/too_long",
            f"The move has {len(text)} characters; at most {request.app[CONFIG].max_move}.",
        )
    end = body.get("end", False)
    if not isinstance(end, bool):
        raise RelayError("request/invalid", f"The field 'end' must be true or false, not {end!r}.")
    action = Action("move", after, text, end)
    match = request.match_info["match"]
    seq = await request.app[STORE].act(match, token, action, time.time())
    request.app[METRICS].moves.inc()
    if "wait" not in request.query:
        return _json({"seq": seq})
    # The move post doubles as the next poll: one request per move instead of two.
    hold = min(request.app[CONFIG].hold, float(query_int(request, "wait", 0)))
    if request.app[LIFECYCLE].closing:
        hold = 0
    found = await request.app[STORE].wait(match, seq, hold)
    return web.Response(body=b'{"seq":%d,"events":[%b]}' % (seq, b",".join(found)), headers=JSON)


async def pass_turn(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/pass: gives the turn back to the partner."""
    token = require_bearer(request)
    after = int_field(await json_body(request), "after")
    seq = await request.app[STORE].act(
        request.match_info["match"], token, Action("pass", after), time.time()
    )
    request.app[METRICS].moves.inc()
    return _json({"seq": seq})


async def confirm(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/confirm: the partner agrees or disputes that the game is over."""
    token = require_bearer(request)
    body = await json_body(request)
    after = int_field(body, "after")
    agree = body.get("agree", True)
    if not isinstance(agree, bool):
        raise RelayError(
            "request/invalid", f"The field 'agree' must be true or false, not {agree!r}."
        )
    action = Action("confirm", after, agree=agree)
    seq = await request.app[STORE].act(request.match_info["match"], token, action, time.time())
    return _json({"seq": seq})


async def resign(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/resign: ends the match at once; the partner wins."""
    token = require_bearer(request)
    await json_body(request)
    seq = await request.app[STORE].act(
        request.match_info["match"], token, Action("resign"), time.time()
    )
    return _json({"seq": seq})


async def cancel(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/cancel: withdraws a seek nobody has joined yet."""
    token = require_bearer(request)
    await request.app[STORE].act(request.match_info["match"], token, Action("cancel"), time.time())
    return _json({"cancelled": True})


async def match_info(request: web.Request) -> web.Response:
    """GET /v1/matches/{match}: the match's game, status, turn and last event number."""
    info = await request.app[STORE].info(request.match_info["match"])
    return _json(
        {
            "match": info.match,
            "game": info.game,
            "version": info.version,
            "room": info.room,
            "status": info.status.value,
            "turn": info.turn,
            "first": info.first,
            "last": info.last,
        }
    )


async def healthz(request: web.Request) -> web.Response:
    """GET /healthz: 200 while the relay and its store answer."""
    await request.app[STORE].counts()
    return _json({"ok": True})


async def metrics(request: web.Request) -> web.Response:
    """GET /metrics: Prometheus text format."""
    counts = await request.app[STORE].counts()
    body = request.app[METRICS].render(counts)
    return web.Response(body=body, headers={"Content-Type": "text/plain; version=0.0.4"})


def retry_after_header(seconds: float) -> str:
    """Returns a Retry-After value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))

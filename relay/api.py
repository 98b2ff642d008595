"""The protocol's endpoints as plain coroutines, whichever HTTP server carries them.

Each takes the parts of a request it needs and returns (status, JSON body), or raises
RelayError; the aiohttp handlers and the lean front both call these, so they answer alike."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping
from typing import NamedTuple

import orjson

from relay.config import Config
from relay.errors import RelayError
from relay.fields import (
    bearer,
    int_field,
    json_body,
    name_field,
    query_int,
    query_seconds,
    require_bearer,
)
from relay.limits import RateLimiter
from relay.memory_store import Held, MemoryStore
from relay.metrics import RelayMetrics
from relay.store import Action, Event, Store, hash_token, new_action

__all__ = ["Answer", "Api", "Lifecycle", "MovePlan", "Reply", "error_reply", "retry_after_header"]

TOKEN = re.compile(r"[A-Za-z0-9_-]{32,128}")
"""A seeker's own token: 32 to 128 URL-safe characters, which it must draw at random."""

BAD_TOKEN = "The field 'token' must be 32 to 128 random characters from A-Z a-z 0-9 _ -."

Reply = tuple[int, bytes]
"""An answer: HTTP status and JSON body."""

Answer = Callable[[Reply | None, BaseException | None], None]
"""Takes a request's answer, or the error that ends it, when it is ready."""


class MovePlan(NamedTuple):
    """What a move request's head decides: the seat token (and its digest), and how long the
    post waits for the reply, within --hold (None: it does not wait)."""

    token: str
    digest: str
    wait: float | None


class Lifecycle:
    """Where the process is in its life."""

    closing: bool = False
    """Set when shutdown begins: held polls are answered and new ones are turned away."""


def error_reply(error: RelayError) -> Reply:
    """Returns the answer to an error: {"error": {"code": ..., "message": ...}}."""
    return error.status, orjson.dumps({"error": {"code": error.code, "message": error.message}})


def retry_after_header(seconds: float) -> str:
    """Returns a Retry-After value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


def _events(found: list[Event]) -> bytes:
    return b'{"events":[' + b",".join(found) + b"]}"


class Api:
    """The endpoints of protocol v1 over one store, with this process's limits and metrics."""

    def __init__(self, config: Config, store: Store, metrics: RelayMetrics) -> None:
        self.config = config
        self.store = store
        self.metrics = metrics
        self.lifecycle = Lifecycle()
        self.seek_limiter = RateLimiter.per_minute(config.seeks_per_minute)
        self.request_limiter = RateLimiter(
            config.requests_per_second, 2.0 * config.requests_per_second
        )
        self.held: dict[tuple[str, int], int] = {}
        """Polls held open in this process, per (match, seat)."""

    def admit(self, client: str) -> None:
        """Counts a request of client against its rate; raises limit/requests past it."""
        wait = self.request_limiter.take(client, time.monotonic())
        if wait:
            raise RelayError("limit/requests", retry_after=wait)

    async def seek(self, client: str, content_type: str, raw: bytes) -> Reply:
        """POST /v1/seek: takes a seat in a waiting match, or opens one."""
        self.admit(client)
        now = time.time()
        wait = self.seek_limiter.take(client, now)
        if wait:
            raise RelayError("limit/seeks", retry_after=wait)
        body = json_body(content_type, raw)
        game = name_field(body, "game", required=True)
        assert game is not None
        version = name_field(body, "version", required=False, empty=True) or ""
        room = name_field(body, "room", required=False)
        token = body.get("token")
        if token is not None and (not isinstance(token, str) or TOKEN.fullmatch(token) is None):
            raise RelayError("request/invalid", BAD_TOKEN)
        ticket = await self.store.seek(game, version, room, now, token)
        return 201, orjson.dumps(
            {"match": ticket.match, "seat": ticket.seat, "token": ticket.token}
        )

    async def events(
        self, client: str, match: str, authorization: str | None, query: Mapping[str, str]
    ) -> Reply:
        """GET /v1/matches/{match}/events?after=N: the log above N, held until there is some."""
        self.admit(client)
        after = query_int(query.get("after"), "after", 0)
        hold = self.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        seat, found = await self.store.poll(match, bearer(authorization), after, time.time())
        if not found and hold > 0:
            if self.lifecycle.closing:
                raise RelayError("server/shutting_down", retry_after=1.0)
            found = await self._hold(match, seat, after, hold)
        return 200, _events(found)

    async def _hold(self, match: str, seat: int | None, after: int, hold: float) -> list[Event]:
        if seat is None:
            return await self.store.wait(match, after, hold)
        held, key = self.held, (match, seat)
        count = held.get(key, 0)
        if count >= self.config.polls_per_seat:
            raise RelayError("limit/polls", retry_after=1.0)
        held[key] = count + 1
        self.metrics.held_polls += 1
        try:
            return await self.store.wait(match, after, hold)
        finally:
            self.metrics.held_polls -= 1
            left = held[key] - 1
            if left:
                held[key] = left
            else:
                del held[key]

    async def move(
        self,
        client: str,
        match: str,
        authorization: str | None,
        query: Mapping[str, str],
        content_type: str,
        raw: bytes,
    ) -> Reply:
        """POST /v1/matches/{match}/moves[?wait=S]: relays a move text, applied once."""
        self.admit(client)
        plan = self.move_plan(authorization, query)
        action = self.move_action(content_type, raw)
        seq = await self.store.act(match, plan.token, action, time.time())
        self.metrics.moves += 1
        if plan.wait is None:
            return 200, b'{"seq":%d}' % seq
        # The move post doubles as the next poll: one request per move instead of two.
        found = await self.store.wait(match, seq, self._reply_hold(plan.wait))
        return 200, b'{"seq":%d,"events":[%b]}' % (seq, b",".join(found))

    def move_now(
        self,
        store: MemoryStore,
        match: str,
        plan: MovePlan,
        content_type: str,
        raw: bytes,
        answer: Answer,
    ) -> Held | None:
        """move() on the memory store, without a coroutine or a future, for a request
        already admitted and planned: answers through `answer`, at once or when the reply
        arrives (then returning the wait held)."""
        action = self.move_action(content_type, raw)
        seq = store.act_hashed(match, plan.digest, action, time.time())
        self.metrics.moves += 1
        if plan.wait is None:
            answer((200, b'{"seq":%d}' % seq), None)
            return None

        def wake(found: list[Event] | None) -> None:
            if found is None:
                answer(None, RelayError("match/expired"))
            else:
                answer((200, b'{"seq":%d,"events":[%b]}' % (seq, b",".join(found))), None)

        return store.watch(match, seq, self._reply_hold(plan.wait), wake)

    def move_plan(self, authorization: str | None, query: Mapping[str, str]) -> MovePlan:
        """Reads what a move request's head decides: its token and how long it waits for the
        reply. The lean front reads it once per head a connection sends, not per move."""
        token = require_bearer(authorization)
        wait = None if "wait" not in query else query_seconds(query["wait"], "wait")
        if wait is not None:
            wait = min(self.config.hold, wait)
        return MovePlan(token, hash_token(token), wait)

    def move_action(self, content_type: str, raw: bytes) -> Action:
        """Reads a move request's body, checked before anything is applied (a refused
        request changes nothing)."""
        body = json_body(content_type, raw)
        after = int_field(body, "after")
        text = body.get("move")
        if not isinstance(text, str):
            raise RelayError("request/invalid", f"The field 'move' must be a string, not {text!r}.")
        if len(text) > self.config.max_move:
            raise RelayError(
                "move/too_long",
                f"The move has {len(text)} characters; at most {self.config.max_move}.",
            )
        end = body.get("end", False)
        if not isinstance(end, bool):
            raise RelayError(
                "request/invalid", f"The field 'end' must be true or false, not {end!r}."
            )
        return new_action(Action, ("move", after, text, end, True))

    def _reply_hold(self, wait: float) -> float:
        """Seconds a move post waits for the reply: as planned, or none at shutdown."""
        return 0.0 if self.lifecycle.closing else wait

    async def pass_turn(
        self, client: str, match: str, authorization: str | None, content_type: str, raw: bytes
    ) -> Reply:
        """POST /v1/matches/{match}/pass: gives the turn back to the partner."""
        self.admit(client)
        token = require_bearer(authorization)
        after = int_field(json_body(content_type, raw), "after")
        seq = await self.store.act(match, token, Action("pass", after), time.time())
        self.metrics.moves += 1
        return 200, b'{"seq":%d}' % seq

    async def confirm(
        self, client: str, match: str, authorization: str | None, content_type: str, raw: bytes
    ) -> Reply:
        """POST /v1/matches/{match}/confirm: the partner agrees or disputes the game is over."""
        self.admit(client)
        token = require_bearer(authorization)
        body = json_body(content_type, raw)
        after = int_field(body, "after")
        agree = body.get("agree", True)
        if not isinstance(agree, bool):
            raise RelayError(
                "request/invalid", f"The field 'agree' must be true or false, not {agree!r}."
            )
        action = Action("confirm", after, agree=agree)
        seq = await self.store.act(match, token, action, time.time())
        return 200, b'{"seq":%d}' % seq

    async def resign(
        self, client: str, match: str, authorization: str | None, content_type: str, raw: bytes
    ) -> Reply:
        """POST /v1/matches/{match}/resign: ends the match at once; the partner wins."""
        self.admit(client)
        token = require_bearer(authorization)
        json_body(content_type, raw)
        seq = await self.store.act(match, token, Action("resign"), time.time())
        return 200, b'{"seq":%d}' % seq

    async def cancel(self, client: str, match: str, authorization: str | None) -> Reply:
        """POST /v1/matches/{match}/cancel: withdraws a seek nobody has joined yet."""
        self.admit(client)
        token = require_bearer(authorization)
        await self.store.act(match, token, Action("cancel"), time.time())
        return 200, b'{"cancelled":true}'

    async def match_info(self, client: str, match: str) -> Reply:
        """GET /v1/matches/{match}: the match's game, status, turn and last event number."""
        self.admit(client)
        info = await self.store.info(match)
        return 200, orjson.dumps(
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

    async def healthz(self) -> Reply:
        """GET /healthz: 200 while the relay and its store answer."""
        await self.store.counts()
        return 200, b'{"ok":true}'

    async def metrics_text(self) -> bytes:
        """GET /metrics: Prometheus text format."""
        return self.metrics.render(await self.store.counts())

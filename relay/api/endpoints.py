"""The protocol's endpoints, whichever HTTP server carries them: one call in per request.

Either server reads a request of the route table into a Call and hands it to Api.handle,
which answers through a callback: at once, or when what the request waits for is done. The
endpoints are coroutines that take the Call and return (status, body), or raise RelayError;
they live in parts (relay.api.players, .moves, .matches, .lobby, .table, .moderation,
.passkeys, .push) over
the process's held requests (relay.api.holds)."""

from __future__ import annotations

import asyncio
import functools
import math
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

import orjson

from relay.api.calls import Answer, Call, Pending, Reply, drive, task_done
from relay.api.challenges import ChallengeEndpoints
from relay.api.holds import Holds, Lifecycle
from relay.api.limits import RateLimiter
from relay.api.lobby import LobbyEndpoints
from relay.api.matches import MatchEndpoints
from relay.api.metrics import RelayMetrics
from relay.api.moderation import ModerationEndpoints
from relay.api.moves import MoveEndpoints
from relay.api.openapi import openapi
from relay.api.passkeys import PasskeyEndpoints
from relay.api.players import PlayerEndpoints
from relay.api.push import PushEndpoints
from relay.api.routes import ROUTES
from relay.api.table import TableAnswers, TableEndpoints
from relay.api.verdicts import Verdicts
from relay.config import Config
from relay.core.errors import RelayError
from relay.core.referee import Referee
from relay.store.base import Immediate, Store

__all__ = ["Api", "Lifecycle", "error_reply", "retry_after_header"]

Endpoint = Callable[[Call], Coroutine[Any, Any, Reply]]
"""A coroutine method answering one route."""


def error_reply(error: RelayError) -> Reply:
    """Returns the answer to an error: {"error": {"code": ..., "message": ...}}, markup in the
    message (it may quote the request: a match id, a parameter) escaped as JSON allows."""
    body = orjson.dumps({"error": {"code": error.code, "message": error.message}})
    if b"<" in body or b">" in body or b"&" in body:
        body = body.replace(b"&", b"\\u0026").replace(b"<", b"\\u003c").replace(b">", b"\\u003e")
    return error.status, body


def retry_after_header(seconds: float) -> str:
    """Returns a Retry-After value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


class Api:
    """The endpoints of protocol v1 over one store, with this process's limits and metrics:
    routes each call to its part."""

    def __init__(
        self,
        config: Config,
        store: Store,
        metrics: RelayMetrics,
        referees: Mapping[str, Referee] | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.metrics = metrics
        self.verdicts = Verdicts(store, referees or {}, config.referee_budget)
        """The referees the host turned on, by game (--referee), and the verdicts they give."""
        self.holds = Holds(config, store, metrics)
        self.lifecycle: Lifecycle = self.holds.lifecycle
        self.request_limiter = RateLimiter(
            config.requests_per_second, 2.0 * config.requests_per_second
        )
        self.immediate: Immediate | None = store.immediate
        answers = TableAnswers(config, store)
        self.players = PlayerEndpoints(config, store)
        self.moves = MoveEndpoints(config, store, self.holds, metrics, self.verdicts, answers)
        self.matches = MatchEndpoints(config, store, self.holds, answers)
        self.lobby = LobbyEndpoints(config, store, self.holds, self.verdicts.referees)
        self.tables = TableEndpoints(config, store, self.holds, answers)
        self.moderation = ModerationEndpoints(config, store)
        self.passkeys = PasskeyEndpoints(config, store)
        self.push = PushEndpoints(config, store)
        parts = {
            "players": self.players, "moves": self.moves, "matches": self.matches,
            "lobby": self.lobby, "table": self.tables, "moderation": self.moderation,
            "passkeys": self.passkeys, "push": self.push, "service": self,
        }  # fmt: skip
        self.challenges = ChallengeEndpoints(config, store, self.holds)
        """Challenges, follows and recent opponents; its `told` is the hook of a challenge
        made (relay.core.challenges.ChallengeNotice)."""
        parts["challenges"] = self.challenges
        self.endpoints: dict[str, Endpoint] = {
            route.endpoint: getattr(parts[route.part], route.endpoint) for route in ROUTES
        }
        """The coroutine method answering each route, by its name in the route table."""

    def handle(self, call: Call, answer: Answer) -> Pending | None:
        """Serves one request: calls answer(reply, None) or answer(None, error) once, at once
        or later. Returns what to cancel while it waits (its client may leave), else None.

        On a store that answers at once, a move and an event poll are served through
        callbacks alone (their one wait is Immediate.watch), and any other endpoint runs
        without a task until it has to wait."""
        route = call.route
        try:
            if route.limited:
                self.admit(call.client)
            immediate = self.immediate
            if immediate is not None:
                if route.endpoint == "move":
                    return self.moves.move_now(immediate, call, answer)
                if route.endpoint == "events":
                    return self.matches.events_now(immediate, call, answer)
            coro = self.endpoints[route.endpoint](call)
        except RelayError as error:
            answer(None, error)
            return None
        if immediate is not None:
            return drive(coro, answer)
        task = asyncio.ensure_future(coro)
        task.add_done_callback(functools.partial(task_done, answer))
        return task

    def admit(self, client: str) -> None:
        """Counts a request of client against its rate; raises limit/requests past it."""
        wait = self.request_limiter.take(client, time.monotonic())
        if wait:
            raise RelayError("limit/requests", retry_after=wait)

    async def healthz(self, call: Call) -> Reply:
        """GET /healthz: 200 while the relay and its store answer."""
        await self.store.matches.counts()
        return 200, b'{"ok":true}'

    async def metrics_text(self, call: Call) -> Reply:
        """GET /metrics: Prometheus text format."""
        store = self.store
        self.metrics.referee_over_budget = self.verdicts.over_budget
        return 200, self.metrics.render(
            await store.matches.counts(), store.heard, await store.matches.endings()
        )

    async def openapi(self, call: Call) -> Reply:
        """GET /v1/openapi.json: the OpenAPI document of protocol v1."""
        return 200, openapi()

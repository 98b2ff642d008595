"""A client of an in-process relay behind its trusted proxy, as one device of a player: its
player key (if any) as the bearer, a client address of its own (X-Forwarded-For), and every
answer checked against the relay's OpenAPI document."""

from __future__ import annotations

import secrets
from typing import Any

import orjson

from relay.api.openapi import document
from tests.relay.api.openapi_checker import Checker

__all__ = ["CHECKER", "KeyedClient"]

CHECKER = Checker(document())


class KeyedClient:
    """One device's calls to the relay (an aiohttp test client behind the relay's proxy)."""

    def __init__(self, client: Any, player: str | None = None, address: str = "") -> None:
        self.client = client
        self.player = player
        self.address = address or f"198.51.100.{secrets.randbelow(250) + 1}"

    async def call(
        self, method: str, path: str, body: object = None, *, check: str | None = None,
        bearer: str | None = None,
    ) -> tuple[int, Any]:  # fmt: skip
        """Sends one call (with bearer, or the device's player key, as the bearer); returns
        its status and JSON, checked against the document as the route `check` (the path, its
        query left out, by default)."""
        headers = {"X-Forwarded-For": self.address}
        token = bearer or self.player
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else orjson.dumps(body)
        if data is not None:
            headers["Content-Type"] = "application/json"
        answer = await self.client.request(method, path, data=data, headers=headers)
        found = orjson.loads(await answer.read())
        CHECKER.check(check or path.split("?")[0], method, answer.status, found)
        return answer.status, found

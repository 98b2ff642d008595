"""A minimal protocol client for end-to-end tests: raw HTTP calls, nothing hidden."""

from __future__ import annotations

from typing import Any

import aiohttp

__all__ = ["Seat", "Wire"]


class Seat:
    """One seat's ticket: match id, seat number and token."""

    def __init__(self, ticket: dict[str, Any]) -> None:
        self.match: str = ticket["match"]
        self.seat: int = ticket["seat"]
        self.token: str = ticket["token"]

    @property
    def auth(self) -> dict[str, str]:
        """Returns the Authorization header of this seat."""
        return {"Authorization": f"Bearer {self.token}"}


class Wire:
    """Calls the relay's endpoints and returns (status, JSON body)."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session = session
        self.url = url

    async def call(
        self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        """Sends one request; returns its status and decoded JSON body."""
        async with self.session.request(
            method, self.url + path, json=body, headers=headers
        ) as answer:
            return answer.status, await answer.json()

    async def seek(self, game: str, **fields: str) -> Seat:
        """Seeks a seat; fails unless the relay answers 201."""
        status, body = await self.call("POST", "/v1/seek", {"game": game, **fields})
        assert status == 201, body
        return Seat(body)

    async def events(
        self, match: str, after: int, seat: Seat | None = None, wait: int | str | None = None
    ) -> list[dict[str, Any]]:
        """Polls the events above after (as the seat, or as a spectator)."""
        query = f"?after={after}" + ("" if wait is None else f"&wait={wait}")
        status, body = await self.call(
            "GET", f"/v1/matches/{match}/events{query}", headers=seat.auth if seat else None
        )
        assert status == 200, body
        events: list[dict[str, Any]] = body["events"]
        return events

    async def post(self, seat: Seat, action: str, body: object) -> tuple[int, Any]:
        """Posts a write (moves, pass, confirm, resign, cancel) as the seat."""
        return await self.call("POST", f"/v1/matches/{seat.match}/{action}", body, seat.auth)

    async def pair(self, game: str, **fields: str) -> tuple[Seat, Seat]:
        """Seeks twice and returns (seat to move first, the other), both started."""
        a = await self.seek(game, **fields)
        b = await self.seek(game, **fields)
        assert a.match == b.match
        started = (await self.events(a.match, 0, a))[0]
        assert started["type"] == "started"
        return (a, b) if started["first"] == a.seat else (b, a)

"""Whole matches of Connect Four through the relay, for the cost of a referee: the same game
played again and again, its last move ending it (`end: true`), against a relay that referees
Connect Four (`--referee connect4`) and one that does not.

Each seat plays as the shipped clients do: one request per move (a move post held for the
reply), a poll when the partner moves first, and a confirm of the partner's game-ending move
(none where the referee's verdict came with the move)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import orjson

from bench.http import Connection
from bench.players import JSON, Tally, relay_tickets

__all__ = ["CONNECT4", "GAME", "REFEREED", "connect4_match"]

CONNECT4, REFEREED = "connect4", "connect4, refereed"
"""The modes of the runs of whole Connect Four matches: without a referee, and refereed."""

GAME = "34102666453623342246052112146411005005553"
"""A game of Connect Four, one column a move from the first mover's: 41 moves, the last one
four in a row for the first mover (tests/bench checks it on the rules)."""

FINISHED = (200, 409)
"""A confirm's answers: written, or refused (the referee's verdict came in the meantime)."""


async def _seat(host: str, port: int, ticket: dict[str, Any], tally: Tally) -> None:
    """Plays one seat of one game of GAME."""
    match, seat = ticket["match"], ticket["seat"]
    auth = f"Authorization: Bearer {ticket['token']}\r\n"
    conn = await Connection(host, port).open()
    status, _, data = await conn.request("GET", f"/v1/matches/{match}/events?after=0", b"", auth)
    assert status == 200, data
    first = orjson.loads(data)["events"][0]["first"]
    cursor, index, sent = 1, 0, time.monotonic_ns()
    while index < len(GAME):
        if (index % 2 == 0) == (seat == first):
            last = index + 1 == len(GAME)
            path = f"/v1/matches/{match}/moves" + ("" if last else "?wait=20")
            body = orjson.dumps({"after": cursor, "move": GAME[index], "end": last})
            sent = time.monotonic_ns()
            status, _, data = await conn.request("POST", path, body, auth + JSON)
            assert status == 200, data
            answer = orjson.loads(data)
            cursor, index = answer["seq"], index + 1
            if last:
                break
            events = answer["events"]
        else:
            path = f"/v1/matches/{match}/events?after={cursor}"
            status, _, data = await conn.request("GET", path, b"", auth)
            assert status == 200, data
            events = orjson.loads(data)["events"]
        for number, event in enumerate(events):
            cursor = event["seq"]
            if event["type"] == "move":
                tally.received(str(sent))
                index += 1
                if event["end"] and number + 1 == len(events):  # no verdict with it
                    body = orjson.dumps({"after": cursor, "agree": True})
                    path = f"/v1/matches/{match}/confirm"
                    status, _, data = await conn.request("POST", path, body, auth + JSON)
                    assert status in FINISHED, data
    conn.close()


async def connect4_match(
    host: str,
    ports: tuple[int, int],
    room: str,
    games: int,
    tally: Tally,
    go: asyncio.Event,
    ready: Callable[[], None],
) -> None:
    """Plays `games` games of GAME one after another, each a new match in room (each seat
    through its own port of ports); counts every move delivered."""
    tickets = await relay_tickets(host, ports[0], f"{room}-0", "connect4")
    ready()
    await go.wait()
    for number in range(games):
        if number:
            tickets = await relay_tickets(host, ports[0], f"{room}-{number}", "connect4")
        await asyncio.gather(
            *(_seat(host, ports[seat], ticket, tally) for seat, ticket in enumerate(tickets))
        )

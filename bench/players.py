"""Scripted players: fixed-length matches played at full speed through each target."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import orjson

from bench.http import Connection, start_match

__all__ = ["Tally", "ceiling_player", "nchan_player", "relay_player", "relay_tickets"]

JSON = "Content-Type: application/json\r\n"


class Tally:
    """What one worker measured: move latencies (seconds) and moves delivered."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0

    def received(self, sent_ns: bytes | str) -> None:
        """Counts a move delivered, stamped with its sender's monotonic clock."""
        self.latencies.append((time.monotonic_ns() - int(sent_ns)) / 1e9)
        self.moves += 1


async def relay_tickets(
    host: str, port: int, room: str, game: str = "bench"
) -> list[dict[str, Any]]:
    """Seeks both seats of one match of game in a private room; returns the two tickets."""
    conn = await Connection(host, port).open()
    tickets = []
    for _ in range(2):
        body = orjson.dumps({"game": game, "room": room})
        status, _, data = await conn.request("POST", "/v1/seek", body, JSON)
        assert status == 201, data
        tickets.append(orjson.loads(data))
    await start_match(conn, tickets[0])
    conn.close()
    return tickets


async def relay_player(
    host: str,
    port: int,
    ticket: dict[str, Any],
    length: int,
    fast: bool,
    tally: Tally,
    go: asyncio.Event,
    ready: Callable[[], None],
    think: float = 0.0,
    table: bool = False,
) -> None:
    """Plays one seat: posts its moves and polls for the partner's, until `length` moves.
    With `table`, every poll and held move post also asks for the match's table (`table=V`),
    as the shipped SDKs and pages do."""
    match, seat = ticket["match"], ticket["seat"]
    version = 0
    auth = f"Authorization: Bearer {ticket['token']}\r\n"
    poll, post = await Connection(host, port).open(), await Connection(host, port).open()
    events_path = f"/v1/matches/{match}/events?after="

    def tabled(path: str) -> str:
        return path + ("&" if "?" in path else "?") + f"table={version}" if table else path

    status, _, data = await poll.request("GET", events_path + "0", headers=auth)
    started = orjson.loads(data)["events"]
    assert status == 200 and started, data
    turn, cursor, done = started[0]["first"], 1, 0
    ready()
    await go.wait()
    while done < length:
        if turn == seat:
            if think:
                await asyncio.sleep(think)
            last = done + 1 == length
            path = f"/v1/matches/{match}/moves" + ("?wait=20" if fast and not last else "")
            if fast and not last:
                path = tabled(path)
            body = orjson.dumps({"after": cursor, "move": str(time.monotonic_ns())})
            status, _, data = await post.request("POST", path, body, auth + JSON)
            assert status == 200, data
            answer = orjson.loads(data)
            version = answer["table"]["version"] if "table" in answer else version
            cursor, done, turn = answer["seq"], done + 1, 1 - seat
            events = answer.get("events", [])
        else:
            path = tabled(events_path + str(cursor))
            status, _, data = await poll.request("GET", path, headers=auth)
            assert status == 200, data
            answer = orjson.loads(data)
            events = answer["events"]
            version = answer["table"]["version"] if "table" in answer else version
        for event in events:
            if event["type"] == "move" and event["seat"] != seat:
                tally.received(event["move"])
                done, turn = done + 1, seat
            cursor = event["seq"]
    poll.close()
    post.close()


async def nchan_player(
    host: str,
    port: int,
    channel: str,
    seat: int,
    length: int,
    tally: Tally,
    go: asyncio.Event,
    ready: Callable[[], None],
    think: float = 0.0,
) -> None:
    """Plays one seat on Nchan: long-polls its own channel, publishes to the partner's."""
    sub, pub = await Connection(host, port).open(), await Connection(host, port).open()
    mine, theirs = f"/sub/{channel}_{seat}", f"/pub/{channel}_{1 - seat}"
    since = ""
    ready()
    await go.wait()
    turn, done = 0, 0
    while done < length:
        if turn == seat:
            if think:
                await asyncio.sleep(think)
            status, _, data = await pub.request("POST", theirs, str(time.monotonic_ns()).encode())
            assert status in (201, 202), (status, data)
            done, turn = done + 1, 1 - seat
        else:
            status, headers, data = await sub.request("GET", mine, headers=since)
            assert status == 200, (status, data)
            since = (
                f"If-Modified-Since: {headers[b'last-modified'].decode()}\r\n"
                f"If-None-Match: {headers[b'etag'].decode()}\r\n"
            )
            tally.received(data.decode())
            done, turn = done + 1, seat
    sub.close()
    pub.close()


async def ceiling_player(
    host: str, port: int, length: int, tally: Tally, go: asyncio.Event, ready: Callable[[], None]
) -> None:
    """Sends `length` requests one after another to the fixed-answer server."""
    conn = await Connection(host, port).open()
    ready()
    await go.wait()
    for _ in range(length):
        sent = str(time.monotonic_ns())
        status, _, _ = await conn.request("POST", "/v1/matches/x/moves", b'{"after":1}', JSON)
        assert status == 200
        tally.received(sent)
    conn.close()

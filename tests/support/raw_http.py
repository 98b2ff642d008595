"""Sends a corpus shape to a server over a raw socket, on a fresh match, and reads the verdict.

The verdict is what a client and the match can see: the status of every answer the server
gave on the connection (until it closed, or went quiet), and the events the request left in
the match's log, with seats named by role (the mover, the partner) so that two servers'
matches compare."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from dataclasses import dataclass
from typing import Any

import aiohttp

from tests.relay.http.http_corpus import Shape, fill

__all__ = [
    "Answers",
    "Seats",
    "Verdict",
    "effect",
    "exchange",
    "parse_answers",
    "probe",
    "seat_pair",
]

FIRST_ANSWER = 5.0
"""Seconds to wait for the first byte of an answer."""

QUIET = 0.6
"""Seconds of silence after which the server is taken to have answered all it will."""

LONGEST = 10.0
"""Seconds an exchange may take in all."""

REJECTED = frozenset({400, 411, 413, 414, 417, 431, 501, 505})
"""Statuses that refuse a request as a message, before any endpoint reads it: RFC 9112 lets a
server choose among them (a head too long is 400 to one server and 431 to another)."""

_rooms = itertools.count()
_STATUS = re.compile(rb"HTTP/\d\.\d (\d{3})[^\r\n]*\r?\n")


@dataclass(frozen=True, slots=True)
class Answers:
    """What came back on one connection: each answer's status, whether the server closed the
    connection, and any bytes that did not read as an answer."""

    statuses: tuple[int, ...]
    closed: bool
    garbage: bytes = b""


@dataclass(frozen=True, slots=True)
class Verdict:
    """A server's reading of one shape: its final answers' statuses (1xx left out) and the
    events it added to the match."""

    statuses: tuple[int, ...]
    effect: tuple[tuple[str, ...], ...]
    closed: bool
    garbage: bytes = b""

    @property
    def kinds(self) -> tuple[str, ...]:
        """Returns each answer's kind: 'rejected' for a status that refuses the message as
        HTTP (REJECTED), else the status itself; and 'garbage' for unreadable bytes."""
        found = tuple("rejected" if s in REJECTED else str(s) for s in self.statuses)
        return (*found, "garbage") if self.garbage else found

    def __str__(self) -> str:
        garbage = f" then garbage {self.garbage[:40]!r}" if self.garbage else ""
        closed = "closed" if self.closed else "kept open"
        return f"answers {list(self.statuses)}{garbage} ({closed}), effect {list(self.effect)}"


@dataclass(frozen=True, slots=True)
class Seats:
    """A fresh started match: its id and the tokens of the seat to move and of its partner."""

    match: str
    mover: str
    partner: str
    mover_seat: int


def parse_answers(data: bytes, closed: bool) -> Answers:
    """Reads HTTP/1.x answers one after another (framed by Content-Length or chunked, or
    running to the close); returns their statuses, 1xx interim answers left out."""
    statuses: list[int] = []
    rest = data
    while rest:
        found = _STATUS.match(rest)
        end = rest.find(b"\r\n\r\n")
        if found is None or end < 0:
            return Answers(tuple(statuses), closed, rest)
        status = int(found.group(1))
        head, rest = rest[:end], rest[end + 4 :]
        fields = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(b":") for line in head.split(b"\r\n")[1:])
        }
        if status >= 200:
            statuses.append(status)
        if status < 200 or status in (204, 304):
            continue
        if b"content-length" in fields:
            rest = rest[int(fields[b"content-length"]) :]
        elif fields.get(b"transfer-encoding", b"").lower() == b"chunked":
            while True:
                line, _, rest = rest.partition(b"\r\n")
                size = int(line.split(b";")[0] or b"0", 16)
                rest = rest[size + 2 :]
                if size == 0:
                    break
        else:
            rest = b""  # read to the close
    return Answers(tuple(statuses), closed)


async def exchange(
    host: str, port: int, data: bytes, first: float = FIRST_ANSWER, quiet: float = QUIET
) -> Answers:
    """Sends data on a new connection and reads until the server closes it or goes quiet
    (nothing in the first `first` seconds, or for `quiet` seconds after that)."""
    reader, writer = await asyncio.open_connection(host, port)
    received = bytearray()
    closed = False
    try:
        writer.write(data)
        await writer.drain()
        async with asyncio.timeout(LONGEST):
            wait = first
            while True:
                try:
                    chunk = await asyncio.wait_for(reader.read(65536), wait)
                except TimeoutError:
                    break
                if not chunk:
                    closed = True
                    break
                received += chunk
                wait = quiet
    except (ConnectionError, TimeoutError):
        closed = True
    finally:
        writer.close()
    return parse_answers(bytes(received), closed)


async def seat_pair(session: aiohttp.ClientSession, url: str, game: str) -> Seats:
    """Seats two players in a private room and returns the started match."""
    room = f"r{next(_rooms)}"
    tickets: list[dict[str, Any]] = []
    for _ in range(2):
        async with session.post(f"{url}/v1/seek", json={"game": game, "room": room}) as answer:
            assert answer.status == 201, await answer.text()
            tickets.append(await answer.json())
    match = tickets[0]["match"]
    headers = {"Authorization": f"Bearer {tickets[0]['token']}"}
    async with session.get(f"{url}/v1/matches/{match}/events?after=0", headers=headers) as answer:
        first = (await answer.json())["events"][0]["first"]
    mover, partner = (tickets[0], tickets[1]) if first == tickets[0]["seat"] else tickets[::-1]
    return Seats(match, mover["token"], partner["token"], mover["seat"])


async def effect(
    session: aiohttp.ClientSession, url: str, seats: Seats
) -> tuple[tuple[str, ...], ...]:
    """Returns the match's events after `started`, seats named by role."""
    async with session.get(f"{url}/v1/matches/{seats.match}/events?after=1&wait=0") as answer:
        events = (await answer.json())["events"]

    def role(seat: int) -> str:
        return "mover" if seat == seats.mover_seat else "partner"

    found: list[tuple[str, ...]] = []
    for event in events:
        if event["type"] == "move":
            found.append(("move", role(event["seat"]), event["move"], json.dumps(event["end"])))
        elif event["type"] == "ended":
            found.append(("ended", event["reason"], role(event["seat"])))
        else:
            found.append((event["type"],))
    return tuple(found)


async def probe(
    session: aiohttp.ClientSession, url: str, host: str, port: int, shape: Shape
) -> Verdict:
    """Sends the shape to the server at host:port on a fresh match (set up through url) and
    returns the verdict."""
    seats = await seat_pair(session, url, "corpus")
    values = {"HOST": f"{host}:{port}", "MATCH": seats.match}
    data = fill(shape.template, {**values, "TOKEN": seats.mover, "PTOKEN": seats.partner})
    answers = await exchange(host, port, data)
    return Verdict(
        answers.statuses, await effect(session, url, seats), answers.closed, answers.garbage
    )

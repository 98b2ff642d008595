"""The lean front of a real relay process: slow clients, pipelining, hand-off to aiohttp."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.support.relay_process import RelayProcess


@pytest.fixture(scope="module")
def relay() -> Iterator[RelayProcess]:
    """Returns a relay process with short timeouts."""
    with RelayProcess(
        "--hold",
        "3",
        "--grace",
        "30",
        "--request-timeout",
        "1",
        "--keepalive-timeout",
        "2",
        "--polls-per-seat",
        "1",
        "--max-body",
        "2048",
        "--seeks-per-minute",
        "100000",  # the module seeks from one address more often than a client may
    ) as relay:
        yield relay


class Raw:
    """A raw HTTP/1.1 connection, to send exactly the bytes a test means."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def send(self, data: bytes) -> None:
        """Writes bytes as they are."""
        self.writer.write(data)
        await self.writer.drain()

    async def answer(self) -> tuple[int, dict[str, str], bytes]:
        """Reads one answer (Content-Length or chunked framing)."""
        async with asyncio.timeout(10):
            status = int((await self.reader.readline()).split()[1])
            headers: dict[str, str] = {}
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                key, _, value = line.decode().partition(":")
                headers[key.strip().lower()] = value.strip()
            if status < 200:
                return status, headers, b""
            if "content-length" in headers:
                return (
                    status,
                    headers,
                    await self.reader.readexactly(int(headers["content-length"])),
                )
            body = b""
            while size := int((await self.reader.readline()).strip(), 16):
                body += await self.reader.readexactly(size)
                await self.reader.readline()
            await self.reader.readline()
            return status, headers, body

    async def closed(self) -> bool:
        """Returns whether the relay closed the connection (within 10 s)."""
        async with asyncio.timeout(10):
            return await self.reader.read() == b""


@pytest.fixture
async def raw(relay: RelayProcess) -> AsyncIterator[Raw]:
    """Returns a fresh raw connection to the relay."""
    reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
    yield Raw(reader, writer)
    writer.close()


def post(path: str, body: bytes, *extra: str) -> bytes:
    """Returns a POST request's bytes."""
    head = "".join(f"{line}\r\n" for line in extra)
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{head}"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


async def seated(
    relay: RelayProcess, room: str, connections: int = 2
) -> tuple[list[Raw], list[dict[str, Any]], str, int]:
    """Opens connections to the relay and seats a player on each of the first two, in a
    private room; returns the connections, the two tickets, the match and who moves first."""
    conns = [
        Raw(*await asyncio.open_connection("127.0.0.1", relay.port)) for _ in range(connections)
    ]
    seek = post("/v1/seek", b'{"game": "front", "room": "%s"}' % room.encode())
    tickets = []
    for conn in conns[:2]:
        await conn.send(seek)
        tickets.append(json.loads((await conn.answer())[2]))
    match = tickets[0]["match"]
    # Seat 0 polls again, as a live client does: that starts the paired match.
    await conns[0].send(events_after(match, 0, tickets[0]))
    first = json.loads((await conns[0].answer())[2])["events"][0]["first"]
    return conns, tickets, match, first


async def test_pipelined_requests_are_answered_in_order(raw: Raw) -> None:
    seek = post("/v1/seek", b'{"game": "pipeline"}')
    await raw.send(seek + seek + b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    first, second, health = await raw.answer(), await raw.answer(), await raw.answer()
    assert (first[0], second[0], health[0]) == (201, 201, 200)
    assert json.loads(first[2])["seat"] == 0 and json.loads(second[2])["seat"] == 1
    assert health[2] == b'{"ok":true}' and "date" in health[1]


async def test_slow_head_gets_408_and_is_closed(raw: Raw) -> None:
    started = time.monotonic()
    await raw.send(b"POST /v1/seek HTTP/1.1\r\nHost: x\r\nContent-")
    status, _, body = await raw.answer()
    assert (status, json.loads(body)["error"]["code"]) == (408, "request/timeout")
    assert await raw.closed()
    assert time.monotonic() - started < 4


async def test_trickled_body_gets_408(raw: Raw) -> None:
    request = post("/v1/seek", b'{"game": "slow-body"}')
    started = time.monotonic()
    await raw.send(request[:-10])
    for byte in request[-10:-7]:
        await asyncio.sleep(0.2)  # each byte in time, the whole too slow
        await raw.send(bytes([byte]))
    status, _, _ = await raw.answer()
    assert status == 408 and await raw.closed()
    assert time.monotonic() - started < 3


async def test_idle_keepalive_connection_is_closed(raw: Raw) -> None:
    await raw.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert (await raw.answer())[0] == 200
    started = time.monotonic()
    assert await raw.closed()
    assert 1.5 < time.monotonic() - started < 5


async def test_body_over_the_limit_is_refused_unread(raw: Raw) -> None:
    await raw.send(
        b"POST /v1/seek HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000000\r\n\r\n{"
    )
    status, headers, body = await raw.answer()
    assert (status, json.loads(body)["error"]["code"]) == (413, "request/too_large")
    assert headers["connection"] == "close" and await raw.closed()


async def test_other_requests_are_handed_to_aiohttp_on_the_same_connection(raw: Raw) -> None:
    await raw.send(post("/v1/seek", b'{"game": "handoff"}'))
    assert (await raw.answer())[0] == 201
    await raw.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    status, headers, body = await raw.answer()
    assert status == 200 and headers["content-type"].startswith("text/plain")
    assert b"relay_moves_relayed_total" in body
    await raw.send(post("/v1/seek", b'{"game": "handoff"}'))
    status, _, body = await raw.answer()
    assert status == 201 and json.loads(body)["seat"] == 1
    await raw.send(b"GET /v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n")
    status, _, body = await raw.answer()
    assert (status, json.loads(body)["error"]["code"]) == (404, "route/not_found")


@pytest.mark.parametrize(
    "request_bytes",
    [
        # Chunked body.
        b"POST /v1/seek HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Transfer-Encoding: chunked\r\n\r\n12\r\n{"game": "chunks"}\r\n0\r\n\r\n',
        # Expect: 100-continue, as curl sends for larger bodies.
        b"POST /v1/seek HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Expect: 100-continue\r\nContent-Length: 18\r\n\r\n{"game": "chunks"}',
        # Percent-encoding in the path.
        b"POST /v1/se%65k HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 18\r\n\r\n{"game": "chunks"}',
    ],
    ids=["chunked", "expect", "percent"],
)
async def test_unusual_requests_are_answered_in_full(raw: Raw, request_bytes: bytes) -> None:
    await raw.send(request_bytes)
    status, _, body = await raw.answer()
    if status == 100:
        status, _, body = await raw.answer()
    assert status == 201 and json.loads(body)["match"]


async def test_http_10_request_is_answered(raw: Raw) -> None:
    await raw.send(b"GET /healthz HTTP/1.0\r\n\r\n")
    status, _, body = await raw.answer()
    assert status == 200 and json.loads(body) == {"ok": True}


async def test_garbage_gets_400_not_a_hang(raw: Raw) -> None:
    await raw.send(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http at all\r\n\r\n")
    status, _, _ = await raw.answer()
    assert status == 400


async def test_poll_of_a_client_that_left_frees_its_place(relay: RelayProcess) -> None:
    async def connect() -> Raw:
        return Raw(*await asyncio.open_connection("127.0.0.1", relay.port))

    setup = await connect()
    seek = post("/v1/seek", b'{"game": "gone"}')
    await setup.send(seek + seek)
    ticket = json.loads((await setup.answer())[2])
    await setup.answer()
    poll = (
        f"GET /v1/matches/{ticket['match']}/events?after=1 HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {ticket['token']}\r\n\r\n"
    ).encode()
    leaving = await connect()
    await leaving.send(poll)
    await asyncio.sleep(0.3)
    await setup.send(poll)
    status, _, body = await setup.answer()
    assert (status, json.loads(body)["error"]["code"]) == (429, "limit/polls")
    leaving.writer.close()
    await leaving.writer.wait_closed()
    await asyncio.sleep(0.3)
    started = time.monotonic()
    await setup.send(poll)
    status, _, body = await setup.answer()
    # Held for the whole hold (3 s) rather than refused: the departed poll's place is free.
    assert (status, json.loads(body)) == (200, {"events": []})
    assert time.monotonic() - started > 2.5
    setup.writer.close()
    await setup.writer.wait_closed()


async def test_a_repeated_head_is_read_with_its_own_body(relay: RelayProcess) -> None:
    # A keep-alive connection sends the same head again and again (a seat's moves): each
    # request must still be answered from its own body, token and turn.
    conns, tickets, match, first = await seated(relay, "same-head")
    order = [first, 1 - first]

    def move(seat: int, after: int, text: str) -> bytes:
        body = json.dumps({"after": after, "move": text}).encode()
        token = tickets[seat]["token"]
        return post(f"/v1/matches/{match}/moves", body, f"Authorization: Bearer {token}")

    answers = []
    for after, text in ((1, "a"), (2, "b"), (3, "c")):
        seat = order[(after - 1) % 2]
        await conns[seat].send(move(seat, after, text))
        answers.append(await conns[seat].answer())
    assert [status for status, _, _ in answers] == [200, 200, 200]

    def head(request: bytes) -> bytes:
        return request.split(b"\r\n\r\n")[0]

    assert head(move(order[0], 1, "a")) == head(move(order[0], 3, "c"))
    # The same head again, out of turn now: refused, as a fresh read would be.
    await conns[order[0]].send(move(order[0], 4, "d"))
    status, _, body = await conns[order[0]].answer()
    assert (status, json.loads(body)["error"]["code"]) == (409, "turn/not_yours")
    await conns[order[0]].send(
        f"GET /v1/matches/{match}/events?after=1 HTTP/1.1\r\nHost: relay\r\n\r\n".encode()
    )
    events = json.loads((await conns[order[0]].answer())[2])["events"]
    assert [(e["seat"], e["move"]) for e in events] == [
        (order[0], "a"),
        (order[1], "b"),
        (order[0], "c"),
    ]
    for conn in conns:
        conn.writer.close()


def auth(ticket: dict[str, Any]) -> str:
    """Returns a seat's Authorization header line."""
    return f"Authorization: Bearer {ticket['token']}"


def events_after(match: str, after: int, ticket: dict[str, Any]) -> bytes:
    """Returns a seat's poll of the events above `after`."""
    head = f"GET /v1/matches/{match}/events?after={after} HTTP/1.1\r\nHost: relay\r\n"
    return f"{head}{auth(ticket)}\r\n\r\n".encode()


async def test_a_held_move_post_is_answered_by_the_reply_then_pipelined_requests(
    relay: RelayProcess,
) -> None:
    # The partner's move answers a held move post from within its own request; a request
    # pipelined behind the held post then starts from the loop, in order.
    conns, tickets, match, first = await seated(relay, "held-then-pipelined")
    mover, partner = conns[first], conns[1 - first]
    me, other = tickets[first], tickets[1 - first]
    held = post(f"/v1/matches/{match}/moves?wait=5", b'{"after": 1, "move": "e4"}', auth(me))
    await mover.send(held + events_after(match, 2, me))
    # The partner sees the move (so the post that made it now waits), then replies.
    await partner.send(events_after(match, 1, other))
    assert [e["move"] for e in json.loads((await partner.answer())[2])["events"]] == ["e4"]
    await partner.send(
        post(f"/v1/matches/{match}/moves", b'{"after": 2, "move": "e5"}', auth(other))
    )
    assert json.loads((await partner.answer())[2]) == {"seq": 3}
    status, _, body = await mover.answer()
    answered = json.loads(body)
    assert status == 200 and answered["seq"] == 2
    assert [(e["seq"], e["move"]) for e in answered["events"]] == [(3, "e5")]
    status, _, body = await mover.answer()
    assert status == 200
    assert [(e["seq"], e["move"]) for e in json.loads(body)["events"]] == [(3, "e5")]
    for conn in conns:
        conn.writer.close()


async def test_a_held_move_post_of_a_client_that_left_is_dropped(relay: RelayProcess) -> None:
    conns, tickets, match, first = await seated(relay, "held-then-gone", connections=3)
    leaving, staying, back = conns[first], conns[1 - first], conns[2]
    me, other = tickets[first], tickets[1 - first]
    await leaving.send(
        post(f"/v1/matches/{match}/moves?wait=5", b'{"after": 1, "move": "a"}', auth(me))
    )
    await staying.send(events_after(match, 1, other))
    assert [e["move"] for e in json.loads((await staying.answer())[2])["events"]] == ["a"]
    leaving.writer.close()
    await leaving.writer.wait_closed()
    # Time for the relay to see the close, so that the reply finds the wait dropped rather
    # than a closing connection (the outcome below is the same either way).
    await asyncio.sleep(0.2)
    # The reply to the departed post goes nowhere; the match goes on for whoever polls next.
    await staying.send(
        post(f"/v1/matches/{match}/moves", b'{"after": 2, "move": "b"}', auth(other))
    )
    assert json.loads((await staying.answer())[2]) == {"seq": 3}
    await back.send(events_after(match, 1, me))
    events = json.loads((await back.answer())[2])["events"]
    assert [(e["seq"], e["move"]) for e in events] == [(2, "a"), (3, "b")]
    for conn in (staying, back):
        conn.writer.close()
        await conn.writer.wait_closed()


async def test_a_request_sent_in_pieces_is_read_whole(raw: Raw) -> None:
    # The first piece is kept as it came; later pieces gather onto it.
    request = post("/v1/seek", b'{"game": "pieces", "room": "in-pieces"}')
    pieces = [request[:7], request[7:40], request[40:-5], request[-5:]]
    for piece in pieces:
        await raw.send(piece)
        await asyncio.sleep(0.05)
    status, _, body = await raw.answer()
    assert status == 201, body
    assert json.loads(body)["seat"] == 0
    # Then a whole request and half of the next one in one write, the rest later.
    again = post("/v1/seek", b'{"game": "pieces", "room": "in-pieces-2"}')
    whole = post("/v1/seek", b'{"game": "pieces", "room": "in-pieces-3"}')
    await raw.send(whole + again[:30])
    await asyncio.sleep(0.05)
    await raw.send(again[30:])
    first, second = await raw.answer(), await raw.answer()
    assert (first[0], second[0]) == (201, 201)

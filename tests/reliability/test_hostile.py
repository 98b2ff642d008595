"""Hostile input against a real relay process: thousands of forged, truncated and other seats'
tokens on every write and on polling; oversized bodies and moves; deep and huge JSON; wrong
content types and encodings. Nothing is accepted that should not be, every answer is a
documented error, and the matches under attack play on to their end, log intact."""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from bench.players import Tally
from bench.soak import Plan, play_match
from tests.reliability.conftest import LAX, assert_log_clean
from tests.support.relay_process import RelayProcess

Answer = tuple[int, dict[str, str], bytes]


async def pipeline(port: int, requests: list[bytes], chunk: int = 200) -> list[Answer]:
    """Sends requests pipelined on one connection, a chunk at a time; returns the answers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
    answers: list[Answer] = []
    try:
        async with asyncio.timeout(60):
            for start in range(0, len(requests), chunk):
                batch = requests[start : start + chunk]
                writer.write(b"".join(batch))
                for _ in batch:
                    answers.append(await read_answer(reader))
    finally:
        writer.close()
    return answers


async def read_answer(reader: asyncio.StreamReader) -> Answer:
    """Reads one answer with a Content-Length (chunked framing too, for aiohttp's)."""
    line = await reader.readline()
    assert line, "the relay closed the connection"
    status = int(line.split()[1])
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        key, _, value = line.decode("latin-1").partition(":")
        headers[key.strip().lower()] = value.strip()
    if "content-length" in headers:
        return status, headers, await reader.readexactly(int(headers["content-length"]))
    body = b""
    while size := int((await reader.readline()).strip(), 16):
        body += await reader.readexactly(size)
        await reader.readline()
    await reader.readline()
    return status, headers, body


def request(
    method: str,
    path: str,
    body: bytes | None = None,
    token: bytes | None = None,
    content_type: bytes = b"application/json",
) -> bytes:
    """Returns the bytes of one HTTP/1.1 request."""
    head = b"%s %s HTTP/1.1\r\nHost: x\r\n" % (method.encode(), path.encode())
    if token is not None:
        head += b"Authorization: Bearer " + token + b"\r\n"
    if body is not None:
        head += b"Content-Type: " + content_type + b"\r\n"
        head += b"Content-Length: %d\r\n" % len(body)
    return head + b"\r\n" + (body or b"")


def code(answer: Answer) -> str:
    """Returns an error answer's code ('' for a success)."""
    if answer[0] < 400:
        return ""
    error: str = orjson.loads(answer[2])["error"]["code"]
    return error


class Seats:
    """Two started matches and a waiting seek, and the ways to reach them."""

    def __init__(self, port: int) -> None:
        self.port = port

    async def seek(self, game: str, room: str | None = None) -> dict[str, Any]:
        body = {"game": game} | ({"room": room} if room else {})
        [answer] = await pipeline(self.port, [request("POST", "/v1/seek", orjson.dumps(body))])
        assert answer[0] == 201, answer
        ticket: dict[str, Any] = orjson.loads(answer[2])
        return ticket

    async def pair(self, game: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Returns (seat to move, partner) of a started match."""
        room = secrets.token_hex(6)
        a, b = await self.seek(game, room), await self.seek(game, room)
        # Seat 0 polls again, as a live client does: that starts the paired match.
        poll = request("GET", f"/v1/matches/{a['match']}/events", token=a["token"].encode())
        [log] = await pipeline(self.port, [poll])
        first = orjson.loads(log[2])["events"][0]["first"]
        return (a, b) if first == a["seat"] else (b, a)

    async def info(self, match: str) -> dict[str, Any]:
        [answer] = await pipeline(self.port, [request("GET", f"/v1/matches/{match}")])
        assert answer[0] in (200, 410), answer
        found: dict[str, Any] = orjson.loads(answer[2])
        return found


@pytest.fixture(scope="module", params=["memory", "redis"])
def relay(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """Returns a relay process on each store (default body and move limits); its log is
    checked after. An unpolled seek lives the whole grace period (--seek-grace 30), however
    long a flood of thousands of requests takes to be answered on a busy machine."""
    store = "memory" if request.param == "memory" else request.getfixturevalue("redis_url")
    flags = ("--store", store, "--hold", "1", "--grace", "30", "--seek-grace", "30")
    with RelayProcess(*flags, *LAX) as relay:
        yield relay
    assert_log_clean(relay)


@pytest.fixture(scope="module")
def roomy() -> Iterator[RelayProcess]:
    """Returns a relay that takes bodies of up to 4 MB, so that deep JSON reaches the parser."""
    with RelayProcess("--hold", "1", "--grace", "30", "--max-body", "4000000", *LAX) as relay:
        yield relay
    assert_log_clean(relay)


def forgeries(real: str, rng: random.Random) -> list[bytes]:
    """Returns tokens that are not `real` but look like it, or like any token, in thousands."""
    found = [secrets.token_urlsafe(32).encode() for _ in range(1000)]
    found += [real[:n].encode() for n in range(1, len(real))]
    found += [(real + extra).encode() for extra in ("x", "=", "==", " x", real)]
    for index in range(len(real)):
        other = rng.choice([c for c in "ABCabc0129_-" if c != real[index]])
        found.append((real[:index] + other + real[index + 1 :]).encode())
    found += [
        real.swapcase().encode(),
        real[::-1].encode(),
        hashlib.sha256(real.encode()).hexdigest().encode(),  # what a store keeps
        b"x" * 8000,
        b"\xff\xfe" + real.encode(),
        real.encode() + b"\x00",
        b"null",
        b"undefined",
        b"' OR '1'='1",
        b"*",
    ]
    return found


def header_safe(value: bytes) -> bool:
    """Returns whether value may stand in a header field (RFC 9110: no control characters)."""
    return not any((byte < 0x20 and byte != 0x09) or byte == 0x7F for byte in value)


WRITES = [
    ("moves", {"after": 1, "move": "stolen", "end": True}),
    ("pass", {"after": 1}),
    ("confirm", {"after": 1, "agree": False}),
    ("resign", {}),
    ("cancel", None),
]


async def test_no_forged_or_foreign_token_is_ever_accepted(relay: RelayProcess) -> None:
    seats = Seats(relay.port)
    x, o = await seats.pair("hostile")
    other_x, other_o = await seats.pair("hostile")
    waiting = await seats.seek("hostile-waiting", secrets.token_hex(6))
    rng = random.Random(7)
    tokens = forgeries(x["token"], rng) + forgeries(o["token"], rng)[1000:]
    tokens += [other_x["token"].encode(), other_o["token"].encode(), waiting["token"].encode()]
    # A token no header may carry (a control character) makes the request malformed HTTP:
    # aiohttp's 400 (with or without the lean front), and the connection closed.
    malformed = [token for token in tokens if not header_safe(token)]
    assert malformed
    for token in malformed:
        path = f"/v1/matches/{x['match']}/moves"
        [answer] = await pipeline(relay.port, [request("POST", path, b'{"after":1}', token)])
        assert answer[0] == 400, answer
    tokens = [token for token in tokens if header_safe(token)]
    requests: list[bytes] = []
    for token in tokens:
        base = f"/v1/matches/{x['match']}"
        for action, body in WRITES:
            payload = None if body is None else orjson.dumps(body)
            requests.append(request("POST", f"{base}/{action}", payload, token))
        requests.append(request("GET", f"{base}/events?after=1&wait=0", None, token))
        if token != waiting["token"].encode():
            requests.append(request("POST", f"/v1/matches/{waiting['match']}/cancel", None, token))
    for token in (x["token"].encode(), o["token"].encode()):
        requests.append(request("POST", f"/v1/matches/{waiting['match']}/cancel", None, token))
    assert len(requests) > 8000
    answers = await pipeline(relay.port, requests)
    codes = Counter(code(answer) for answer in answers)
    accepted = [requests[n][:200] for n, answer in enumerate(answers) if answer[0] < 400]
    assert set(codes) <= {"auth/bad_token", "auth/required"}, accepted
    assert codes["auth/bad_token"] > 7000
    # Nothing changed: the match waits for its first move, the seek for a partner.
    assert (await seats.info(x["match"]))["last"] == 1
    assert (await seats.info(waiting["match"]))["status"] == "waiting"
    # The real seats play on, and no token ever reached the log.
    [answer] = await pipeline(
        relay.port,
        [request("POST", f"/v1/matches/{x['match']}/moves", b'{"after":1,"move":"m"}', b"")],
    )
    assert code(answer) == "auth/required"
    moves = [
        request("POST", f"/v1/matches/{x['match']}/moves", orjson.dumps(body), seat)
        for body, seat in (
            ({"after": 1, "move": "a"}, x["token"].encode()),
            ({"after": 2, "move": "b"}, o["token"].encode()),
            ({"after": 3, "move": "c", "end": True}, x["token"].encode()),
        )
    ]
    confirm = orjson.dumps({"after": 4, "agree": True})
    moves.append(request("POST", f"/v1/matches/{x['match']}/confirm", confirm, o["token"].encode()))
    assert [answer[0] for answer in await pipeline(relay.port, moves)] == [200] * 4
    [log] = await pipeline(relay.port, [request("GET", f"/v1/matches/{x['match']}/events")])
    events = orjson.loads(log[2])["events"]
    assert [e.get("move") for e in events] == [None, "a", "b", "c", None]
    assert events[-1] == {"seq": 5, "type": "ended", "reason": "agreed", "seat": o["seat"]}
    text = relay.log()
    assert all(t not in text for t in (x["token"], o["token"], waiting["token"]))


async def test_oversized_bodies_and_moves_are_refused(relay: RelayProcess) -> None:
    seats = Seats(relay.port)
    x, _ = await seats.pair("oversized")
    moves = f"/v1/matches/{x['match']}/moves"
    token = x["token"].encode()
    cases = [
        # Over --max-body (32768): refused before it is read.
        (request("POST", "/v1/seek", b'{"game":"' + b"g" * 40000 + b'"}'),
         413, "request/too_large"),
        (request("POST", moves, orjson.dumps({"after": 1, "move": "m" * 40000}), token),
         413, "request/too_large"),
        # Within the body limit, over --max-move (4096 characters).
        (request("POST", moves, orjson.dumps({"after": 1, "move": "m" * 4097}), token),
         413, "move/too_long"),
        # 4096 characters of four bytes each: a move of 16 KB, within both limits.
        (request("POST", moves, orjson.dumps({"after": 1, "move": "\U0001f600" * 4096}), token),
         200, ""),
    ]  # fmt: skip
    for sent, status, wanted in cases:
        [answer] = await pipeline(relay.port, [sent])
        assert (answer[0], code(answer)) == (status, wanted)
    # A body over the limit sent in chunks (aiohttp reads those) is refused alike.
    chunked = (
        b"POST /v1/seek HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
        + b"".join(b"1000\r\n" + b" " * 4096 + b"\r\n" for _ in range(10))
        + b"0\r\n\r\n"
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
    writer.write(chunked)
    answer = await asyncio.wait_for(read_answer(reader), 10)
    writer.close()
    assert (answer[0], code(answer)) == (413, "request/too_large")


def nested(depth: int) -> bytes:
    """Returns `depth` arrays, each in the next."""
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize(
    ("body", "wanted"),
    [
        (nested(100_000), "request/bad_json"),
        (b'{"game":' + nested(100_000) + b"}", "request/bad_json"),
        (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "request/bad_json"),
        (b'{"game":"' + b"g" * 3_000_000 + b'"}', "request/invalid"),
        (b"[" + b"1," * 1_000_000 + b"1]", "request/invalid"),
        (b'{"game":"deep","x":1e999}', "request/bad_json"),
    ],
    ids=["arrays", "arrays-in-field", "objects", "long-string", "long-array", "inf"],
)
async def test_deep_or_huge_json_is_refused(roomy: RelayProcess, body: bytes, wanted: str) -> None:
    for framing in ("length", "chunked"):
        if framing == "length":
            sent = request("POST", "/v1/seek", body)
        else:  # aiohttp reads chunked bodies: the same answer
            sent = (
                b"POST /v1/seek HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
            )
        [answer] = await pipeline(roomy.port, [sent])
        assert (answer[0], code(answer)) == (400, wanted), (framing, answer)


async def test_object_with_thousands_of_keys_is_read_as_any_other(relay: RelayProcess) -> None:
    padding = {f"key{n}": n for n in range(2200)}
    body = orjson.dumps({**padding, "game": "many-keys"})
    assert 30_000 < len(body) < 32_768
    seats = Seats(relay.port)
    x, _ = await seats.pair("many-keys")
    move = orjson.dumps({**padding, "after": 1, "move": "m", "end": False})
    answers = await pipeline(
        relay.port,
        [
            request("POST", "/v1/seek", body),
            request("POST", f"/v1/matches/{x['match']}/moves", move, x["token"].encode()),
        ],
    )
    assert [answer[0] for answer in answers] == [201, 200]


CONTENT_TYPES = [
    (b"text/plain", "request/content_type"),
    (b"application/x-www-form-urlencoded", "request/content_type"),
    (b"multipart/form-data; boundary=x", "request/content_type"),
    (b"application/jsonx", "request/content_type"),
    (b"application/json-patch+json", "request/content_type"),
    (b"", "request/content_type"),
    (b"application/json; charset=utf-8", ""),
    (b"Application/JSON", ""),
]


@pytest.mark.parametrize(("content_type", "wanted"), CONTENT_TYPES)
async def test_writes_take_only_json(relay: RelayProcess, content_type: bytes, wanted: str) -> None:
    seats = Seats(relay.port)
    x, o = await seats.pair("types")
    base = f"/v1/matches/{x['match']}"
    sent = [
        request("POST", "/v1/seek", b'{"game":"types-seek"}', None, content_type),
        request("POST", f"{base}/moves", b'{"after":1,"move":"m"}', x["token"].encode(),
                content_type),
        request("POST", f"{base}/pass", b'{"after":2}', o["token"].encode(), content_type),
        request("POST", f"{base}/resign", b"{}", o["token"].encode(), content_type),
    ]  # fmt: skip
    answers = await pipeline(relay.port, sent)
    assert [code(answer) for answer in answers] == [wanted] * 4


@pytest.mark.parametrize(
    "body",
    [
        b'{"game": "\xff\xfe"}',
        b'\xef\xbb\xbf{"game": "bom"}',
        '{"game": "utf16"}'.encode("utf-16"),
        b'{"game": "\\ud800"}',
        b'{"game": "x"',
        b'{"game": "x"}}',
        b"\x00" * 100,
    ],
    ids=["latin1", "bom", "utf16", "surrogate", "truncated", "trailing", "nul"],
)
async def test_bodies_that_are_not_json_text_are_bad_json(relay: RelayProcess, body: bytes) -> None:
    [answer] = await pipeline(relay.port, [request("POST", "/v1/seek", body)])
    assert (answer[0], code(answer)) == (400, "request/bad_json")


async def test_matches_play_to_the_end_after_the_hostile_input(relay: RelayProcess) -> None:
    tally = Tally()
    plans = [Plan(12, ending) for ending in ("agreed", "disputed", "resigned", "cancelled")]
    moved = await asyncio.gather(
        *(play_match("127.0.0.1", relay.port, secrets.token_hex(6), plan, tally) for plan in plans)
    )
    assert moved == [12, 12, 12, 0]

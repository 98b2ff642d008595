"""Your-turn webhooks end to end: real relay processes started with --webhook, players seeking
correspondence matches over HTTP with contact handles, and a real receiver on a local socket
that checks every signature. A receiver that is slow, or down, never slows a move."""

from __future__ import annotations

import asyncio
import base64
import re
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from jsonschema import Draft202012Validator
from standardwebhooks import Webhook, WebhookVerificationError

from tests.support.hook_receiver import Receiver
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import RelayProcess, free_port, quick_flags

SECRET = "correspondence-secret-0123456789"
DAY = {"kind": "deadline", "per_move": 86400}


def relay(url: str, *more: str) -> RelayProcess:
    """Returns a relay (to start) posting your-turn notices to url, at once (no window)."""
    flags = (*quick_flags(), "--webhook", url, "--webhook-every", "0", *more)
    return RelayProcess(*flags, env={"MOVEWIRE_WEBHOOK_SECRET": SECRET})


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    """Returns an HTTP client whose every request gives up after 10 s."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        yield session


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    """Returns a receiver listening on a free port."""
    made = await Receiver(SECRET.encode()).start()
    try:
        yield made
    finally:
        await made.stop()


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    """Stops what a test started (relays, redis-server) when it ends."""
    with ExitStack() as stack:
        yield stack


class Seat:
    """A player's seat through one relay: its ticket, and the calls it makes."""

    def __init__(self, http: aiohttp.ClientSession, base: str, ticket: dict[str, Any]):
        self.http, self.base, self.ticket = http, base, ticket
        self.match: str = ticket["match"]

    async def first(self) -> int:
        """Returns the seat that moves first (the started event's)."""
        url = f"{self.base}/v1/matches/{self.match}/events?after=0&wait=5"
        async with self.http.get(url, headers=self.auth()) as answer:
            events = (await answer.json())["events"]
        assert events[0]["type"] == "started", events
        return int(events[0]["first"])

    def auth(self) -> dict[str, str]:
        """Returns the seat's Authorization header."""
        return {"Authorization": f"Bearer {self.ticket['token']}"}

    async def move(self, after: int, text: str) -> float:
        """Moves and returns how long the answer took (seconds)."""
        started = time.monotonic()
        url = f"{self.base}/v1/matches/{self.match}/moves"
        body = {"after": after, "move": text}
        async with self.http.post(url, json=body, headers=self.auth()) as answer:
            assert answer.status == 200, await answer.text()
            assert (await answer.json())["seq"] == after + 1
        return time.monotonic() - started


async def seek(http: aiohttp.ClientSession, base: str, contact: str, game: str = "mail") -> Seat:
    """Seeks a correspondence match with a contact handle; returns the seat."""
    body = {"game": game, "time_control": DAY, "contact": contact}
    async with http.post(f"{base}/v1/seek", json=body) as answer:
        assert answer.status == 201, await answer.text()
        return Seat(http, base, await answer.json())


async def pair(
    http: aiohttp.ClientSession, bases: tuple[str, str], game: str = "mail"
) -> tuple[Seat, Seat]:
    """Pairs ann (through bases[0]) and bob (through bases[1]); returns (mover, other)."""
    ann = await seek(http, bases[0], "mailto:ann@example.org", game)
    bob = await seek(http, bases[1], "mailto:bob@example.org", game)
    return (ann, bob) if await ann.first() == 0 else (bob, ann)


def turns(deliveries: list[dict[str, Any]]) -> list[tuple[str, str, int, int]]:
    """Returns every turn delivered: (contact, match, seat, seq), in arrival order."""
    return [
        (d["body"]["contact"], t["match"], t["seat"], t["seq"])
        for d in deliveries
        for t in d["body"]["turns"]
    ]


def contact_of(seat: Seat) -> str:
    """Returns the contact the seat sought with (ann is seat 0: she seeks first)."""
    return "mailto:ann@example.org" if seat.ticket["seat"] == 0 else "mailto:bob@example.org"


async def test_each_turn_reaches_its_players_contact_signed(
    http: aiohttp.ClientSession, receiver: Receiver, stack: ExitStack
) -> None:
    base = stack.enter_context(relay(receiver.url)).url
    mover, other = await pair(http, (base, base))
    await mover.move(1, "e4")
    await other.move(2, "e5")
    got = await receiver.wait_for(3, 10)
    assert all(d["verified"] for d in got)
    match = mover.match
    assert sorted(turns(got), key=lambda t: t[3]) == [
        (contact_of(mover), match, mover.ticket["seat"], 1),
        (contact_of(other), match, other.ticket["seat"], 2),
        (contact_of(mover), match, mover.ticket["seat"], 3),
    ]
    due = got[0]["body"]["turns"][0]["due"]
    assert abs(due - (time.time() + 86400)) < 30


async def test_the_standard_webhooks_library_verifies_a_delivery_with_either_secret(
    http: aiohttp.ClientSession, stack: ExitStack, tmp_path: Path
) -> None:
    old = "old-raw-secret-0123456789"
    new = "whsec_" + base64.b64encode(bytes(range(7, 39))).decode()
    key = tmp_path / "hook.key"
    key.write_text(f"{old}\n{new}\n")  # rotating: the old secret, and the new one
    receiver = await Receiver(old.encode()).start()
    try:
        base = stack.enter_context(relay(receiver.url, "--webhook-secret-file", str(key))).url
        await pair(http, (base, base))
        delivery = (await receiver.wait_for(1, 10))[0]
    finally:
        await receiver.stop()
    raw, headers = delivery["raw"], delivery["headers"]
    assert headers["webhook-id"] == delivery["body"]["id"]
    assert len(headers["webhook-signature"].split(" ")) == 2, "one signature per secret"
    # The library takes a str secret as whsec_ or base64, bytes as the key itself.
    assert Webhook(old.encode()).verify(raw, headers) == delivery["body"]
    assert Webhook(new).verify(raw, headers) == delivery["body"]
    refused: list[tuple[str | bytes, str, dict[str, str]]] = [
        (b"another-secret-0123456789", raw, {}),
        (new, raw.replace("mailto:", "mailto:x"), {}),
        (new, raw, {"webhook-id": "0" * 32}),  # the id is signed: a replay under a new id fails
        (new, raw, {"webhook-timestamp": str(int(headers["webhook-timestamp"]) - 1)}),
    ]
    for secret, body, changed in refused:
        with pytest.raises(WebhookVerificationError):
            Webhook(secret).verify(body, {**headers, **changed})


async def test_no_notice_without_a_contact_or_without_a_deadline(
    http: aiohttp.ClientSession, receiver: Receiver, stack: ExitStack
) -> None:
    base = stack.enter_context(relay(receiver.url)).url
    fischer = {"kind": "fischer", "base": 300, "increment": 3}
    for body in ({"game": "blitz", "time_control": fischer, "contact": "ann"},
                 {"game": "mail", "time_control": DAY}):  # fmt: skip
        for _ in range(2):
            async with http.post(f"{base}/v1/seek", json=body) as answer:
                assert answer.status == 201
    mover, _ = await pair(http, (base, base), "mail2")
    await mover.move(1, "x")
    await receiver.wait_for(2, 10)
    await asyncio.sleep(0.5)  # nothing more comes
    got = receiver.got
    assert {t[1] for t in turns(got)} == {mover.match}, "only the contact's deadline match"


async def test_a_slow_receiver_never_slows_a_move(
    http: aiohttp.ClientSession, receiver: Receiver, stack: ExitStack
) -> None:
    receiver.delay = 10.0
    base = stack.enter_context(relay(receiver.url)).url
    mover, other = await pair(http, (base, base))
    took = []
    for after in range(1, 9, 2):
        took.append(await mover.move(after, "m"))
        took.append(await other.move(after + 1, "m"))
    assert max(took) < 0.5, took
    assert len(await receiver.wait_for(4, 5)) >= 4, "the deliveries were on their way"


async def test_a_receiver_that_was_down_gets_the_turns_once_it_is_up(
    http: aiohttp.ClientSession, stack: ExitStack
) -> None:
    port = free_port()
    base = stack.enter_context(relay(f"http://127.0.0.1:{port}/hook")).url
    mover, other = await pair(http, (base, base))
    took = [await mover.move(1, "a"), await other.move(2, "b")]
    assert max(took) < 0.5, took
    # The receiver is down until the relay has tried it and counted a retry (on a busy
    # machine the first attempts may come later than the moves).
    retried = 'relay_webhook_deliveries_total{outcome="retried"}'
    deadline = time.monotonic() + 10
    metrics = ""
    while retried not in metrics:
        assert time.monotonic() < deadline, "the relay never tried the receiver that was down"
        metrics = await (await http.get(f"{base}/metrics")).text()
        await asyncio.sleep(0.05)
    late = await Receiver(SECRET.encode()).start(port)
    try:
        got = await late.wait_for(3, 20)
        assert all(d["verified"] for d in got)
        assert sorted(t[3] for t in turns(got)) == [1, 2, 3]
        # The relay counts a delivery sent once the receiver's answer is back, a moment after
        # the receiver has it.
        sent = 'relay_webhook_deliveries_total{outcome="sent"} 3.0'
        deadline = time.monotonic() + 5
        while sent not in metrics and time.monotonic() < deadline:
            metrics = await (await http.get(f"{base}/metrics")).text()
            await asyncio.sleep(0.05)
        assert retried in metrics
        assert sent in metrics, [line for line in metrics.splitlines() if "webhook" in line]
    finally:
        await late.stop()


async def test_a_receiver_that_redirects_gets_no_delivery_sent_on(
    http: aiohttp.ClientSession, receiver: Receiver, stack: ExitStack
) -> None:
    target = await Receiver(SECRET.encode()).start()
    try:
        receiver.statuses, receiver.location = [302, 307], target.url
        started = stack.enter_context(relay(receiver.url))
        mover, other = await pair(http, (started.url, started.url))  # the mover's turn
        await mover.move(1, "a")  # the other's turn
        await receiver.wait_for(2, 10)
        await asyncio.sleep(1.5)  # a retry's first pause is at most 1 s
        assert target.got == [], "the redirect's target got a request"
        assert len(receiver.got) == 2, "a redirect is not retried"
        await other.move(2, "b")  # the receiver answers 200 again: deliveries go on
        await receiver.wait_for(3, 10)
    finally:
        await target.stop()
    metrics = await (await http.get(f"{started.url}/metrics")).text()
    assert 'relay_webhook_deliveries_total{outcome="failed"} 2.0' in metrics
    assert 'outcome="retried"' not in metrics
    assert started.log().count("a redirect, not followed") == 2, started.log()


async def test_two_relays_on_redis_send_each_turn_once_and_digest_within_the_window(
    http: aiohttp.ClientSession, receiver: Receiver, stack: ExitStack
) -> None:
    redis = stack.enter_context(RedisServer(redis_binary()))
    store = ("--store", redis.url, "--webhook-every", "0.05")  # a 3 s window
    relays = [stack.enter_context(relay(receiver.url, *store)) for _ in range(2)]
    bases = (relays[0].url, relays[1].url)
    first = await pair(http, bases, "mail-a")
    second = await pair(http, (bases[1], bases[0]), "mail-b")
    for mover, other in (first, second):  # every player gets the turn at least once
        await mover.move(1, "a")
        await other.move(2, "b")
    await receiver.wait_for(4, 12)
    await asyncio.sleep(0.5)  # nothing more comes
    got = receiver.got
    assert all(d["verified"] for d in got)
    delivered = turns(got)
    assert len(delivered) == len(set(delivered)), "no turn twice"
    by_contact: dict[str, list[dict[str, Any]]] = {}
    for delivery in got:
        by_contact.setdefault(delivery["body"]["contact"], []).append(delivery)
    for contact, deliveries in by_contact.items():
        assert len(deliveries) == 2, (contact, deliveries)
        assert deliveries[1]["at"] - deliveries[0]["at"] > 2.5, "one delivery per window"
    # Each player's latest turn in each match is in what it got.
    for mover, other in (first, second):
        assert (contact_of(mover), mover.match, mover.ticket["seat"], 3) in delivered
        assert (contact_of(other), other.match, other.ticket["seat"], 2) in delivered


async def test_a_delivery_is_what_the_openapi_document_describes(
    http: aiohttp.ClientSession, receiver: Receiver, stack: ExitStack
) -> None:
    base = stack.enter_context(relay(receiver.url)).url
    mover, _ = await pair(http, (base, base))
    await mover.move(1, "e4")
    got = await receiver.wait_for(2, 10)
    async with http.get(f"{base}/v1/openapi.json") as answer:
        doc = await answer.json()
    hook = doc["webhooks"]["yourTurn"]["post"]
    schema = hook["requestBody"]["content"]["application/json"]["schema"]
    validator = Draft202012Validator({**schema, "components": doc["components"]})
    for delivery in got:
        validator.validate(delivery["body"])
    patterns = {p["name"]: p["schema"]["pattern"] for p in hook["parameters"]}
    assert sorted(patterns) == ["webhook-id", "webhook-signature", "webhook-timestamp"]
    for delivery in got:
        for name, pattern in patterns.items():
            assert re.fullmatch(pattern.strip("^$"), delivery["headers"][name]), name

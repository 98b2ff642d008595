"""Web Push end to end, in a relay on each store (memory, Redis, Redis Cluster), against the
local push service (which checks each push's VAPID signature and decrypts it): a player key's
browser subscribes; its partner moves and the browser gets exactly one turn notice naming the
match and its page; a retried move pushes nothing again; a seat watching its match is pushed
nothing; a low clock is pushed once; the match's end is pushed; a subscription its push
service answers 410 for is dropped; a challenge is pushed to the challenged key."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from cryptography.hazmat.primitives import serialization

from relay import Config, Store, create_app
from relay.core.model import hash_token
from relay.core.table import AWAY
from relay.http.state import PUSH
from relay.push.keys import VapidKey
from tests.relay.wire import Seat, Wire
from tests.support.push_service import Browser, PushService

pytestmark = pytest.mark.timeout(30)

KEY = VapidKey.generate("mailto:host@games.example")
PEM = KEY.private.private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
)
DEADLINE = {"kind": "deadline", "per_move": 600}


class Relay:
    """A relay pushing through the local push service, and a client of it."""

    def __init__(self, server: TestServer, wire: Wire, store: Store, service: PushService):
        self.server = server
        self.wire = wire
        self.store = store
        self.service = service

    async def settled(self) -> None:
        """Waits until every notice the relay was told is handled and every push made."""
        triggers, pusher = self.server.app[PUSH]
        await triggers.idle()
        await pusher.idle()

    async def subscribe(self, player: str) -> Browser:
        browser = self.service.subscribe(KEY.public)
        status, body = await self.wire.call(
            "POST",
            "/v1/player/push",
            {"subscription": browser.subscription()},
            {"Authorization": f"Bearer {player}"},
        )
        assert status == 201, body
        return browser

    async def away(self, seat: Seat) -> None:
        """Closes the seat's page as a browser does (a held poll cut), then has the relay's
        triggers read presence AWAY seconds ahead: as the relay finds the seat gone once AWAY
        passed, without the test waiting those seconds."""
        _, info = await self.wire.call("GET", f"/v1/matches/{seat.match}")
        poll = asyncio.create_task(self.wire.events(seat.match, info["last"], seat, wait=5))
        await asyncio.sleep(0.2)  # the poll is held: nothing to wait on from out here
        poll.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await poll
        deadline = time.monotonic() + 5
        while await self.store.tables.present(seat.match, seat.seat, time.time() + AWAY):
            assert time.monotonic() < deadline, "the relay never heard the page close"
            await asyncio.sleep(0.05)
        self.server.app[PUSH][0].ahead = AWAY

    async def pair(self, players: tuple[str, str], **fields: Any) -> tuple[Seat, Seat]:
        """Returns the seats of players[0] and players[1], in a correspondence match."""
        fields.setdefault("time_control", DEADLINE)
        game = f"g{secrets.token_hex(4)}"
        a = await self.wire.seek(game, player=players[0], **fields)
        b = await self.wire.seek(game, player=players[1], **fields)
        assert a.match == b.match
        await self.wire.events(a.match, 0, a)
        return a, b

    async def to_move(self, a: Seat, b: Seat) -> int:
        """Makes it b's turn (a moving first if it is a's); returns the last event's number."""
        _, info = await self.wire.call("GET", f"/v1/matches/{a.match}")
        if info["turn"] == a.seat:
            await self.move(a, 1)
            return 2
        return 1

    async def rechecked(self, match: str) -> None:
        """Waits until the second look at the match's seat to move is taken."""
        triggers, _ = self.server.app[PUSH]
        deadline = time.monotonic() + 5
        while f"{match}:again" in triggers._timers:
            assert time.monotonic() < deadline, "the second look was never taken"
            await asyncio.sleep(0.05)
        await self.settled()

    async def move(self, seat: Seat, after: int, move: str = "m") -> int:
        status, body = await self.wire.post(seat, "moves", {"after": after, "move": move})
        assert status == 200, body
        seq: int = body["seq"]
        return seq


@pytest.fixture
async def relay(store: Store) -> AsyncIterator[Relay]:
    config = Config(
        hold=1.0, requests_per_second=100000.0, push_key=PEM,
        push_subject="mailto:host@games.example", push_every=0, push_loopback=True,
    )  # fmt: skip
    async with PushService() as service:
        server = TestServer(create_app(config, store))
        await server.start_server()
        timeout = aiohttp.ClientTimeout(total=10)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            yield Relay(server, Wire(session, str(server.make_url(""))), store, service)
        await server.close()


def key() -> str:
    return secrets.token_urlsafe(32)


def first_mover(a: Seat, b: Seat, info: dict[str, Any]) -> tuple[Seat, Seat]:
    return (a, b) if info["turn"] == a.seat else (b, a)


async def test_a_turn_is_pushed_once_to_the_browser_of_the_seat_to_move(relay: Relay) -> None:
    ann, bob = key(), key()
    browser = await relay.subscribe(ann)
    a, b = await relay.pair((ann, bob))
    _, info = await relay.wire.call("GET", f"/v1/matches/{a.match}")
    await relay.away(a)
    if info["turn"] == a.seat:  # Ann moves first: her move gives Bob the turn, his hers
        await relay.move(a, 1)
        await relay.away(a)
        seq = await relay.move(b, 2)
    else:
        seq = await relay.move(b, 1)
    await relay.settled()
    pushes = relay.service.pushes_to(browser)
    assert relay.service.refused == []
    # The first turn (if Ann's) was pushed at the start, when she had just sought: she was
    # watching then. Exactly one push: Bob's move giving her the turn.
    assert len(pushes) == 1
    notice = pushes[0].json()
    assert notice["kind"] == "turn" and notice["match"] == a.match
    assert notice["url"] == f"{info['game']}.html#resume={a.match}&seat={a.seat}"
    assert notice["tag"] == f"match:{a.match}"
    assert pushes[0].headers["urgency"] == "normal"
    # The same move posted again (its answer lost) is answered, and pushes nothing again.
    status, body = await relay.wire.post(b, "moves", {"after": seq - 1, "move": "m"})
    assert (status, body["seq"]) == (200, seq)
    await relay.settled()
    assert len(relay.service.pushes_to(browser)) == 1


async def test_a_seat_watching_its_match_is_pushed_nothing(relay: Relay) -> None:
    relay.server.app[PUSH][0].recheck = 0.5  # not --hold, AWAY and 2 s: the test is quicker
    ann, bob = key(), key()
    browser = await relay.subscribe(ann)
    a, b = await relay.pair((ann, bob))
    after = await relay.to_move(a, b)
    # Ann's page polls (she just sought, or moved): she is shown here, and her turn is not
    # pushed, not now and not when it is looked at again.
    await relay.move(b, after)
    await relay.settled()
    await relay.rechecked(a.match)
    assert relay.service.pushes_to(browser) == []


async def test_a_page_closed_as_the_turn_comes_hears_of_it(relay: Relay) -> None:
    relay.server.app[PUSH][0].recheck = 1.5  # time enough to close the page first
    ann, bob = key(), key()
    browser = await relay.subscribe(ann)
    a, b = await relay.pair((ann, bob))
    after = await relay.to_move(a, b)
    await relay.move(b, after)
    await relay.settled()
    assert relay.service.pushes_to(browser) == []
    # Ann closes her page just after: once she is shown away, the turn is pushed.
    await relay.away(a)
    await relay.rechecked(a.match)
    assert [push.json()["kind"] for push in relay.service.pushes_to(browser)] == ["turn"]


async def test_a_gone_subscription_is_dropped_and_the_end_is_pushed(relay: Relay) -> None:
    ann, bob = key(), key()
    gone, kept = await relay.subscribe(ann), await relay.subscribe(ann)
    relay.service.answer(gone, 410)
    a, b = await relay.pair((ann, bob))
    _, info = await relay.wire.call("GET", f"/v1/matches/{a.match}")
    after = 1
    if info["turn"] == a.seat:
        await relay.move(a, 1)
        after = 2
    await relay.away(a)
    await relay.move(b, after)
    await relay.settled()
    assert [push.json()["kind"] for push in relay.service.pushes_to(kept)] == ["turn"]
    left = await relay.store.push.of(hash_token(ann), time.time())
    assert [kept.endpoint in data.decode() for data in left] == [True]
    # Bob resigns: Ann, away, is told the match is over, and that he resigned.
    status, _ = await relay.wire.post(b, "resign", {})
    assert status == 200
    await relay.settled()
    last = relay.service.pushes_to(kept)[-1].json()
    assert (last["kind"], last["match"]) == ("ended", a.match)
    assert last["url"] == f"replay.html#match={a.match}"
    assert "your partner resigned" in last["body"]
    # /metrics counts them: the turn delivered to one browser, gone at the other, the end.
    async with relay.wire.session.get(relay.wire.url + "/metrics") as answer:
        metrics = await answer.text()
    assert 'relay_pushes_total{outcome="delivered"} 2.0' in metrics
    assert 'relay_pushes_total{outcome="gone"} 1.0' in metrics


async def test_a_low_clock_is_pushed_once(relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    # A clock is low 0.2 s into a 600 s turn, for this test (a tenth of it, else).
    monkeypatch.setattr("relay.push.triggers.LOW_LEAST", 599.8)
    ann, bob = key(), key()
    browser = await relay.subscribe(ann)
    a, b = await relay.pair((ann, bob))
    _, info = await relay.wire.call("GET", f"/v1/matches/{a.match}")
    after = 1
    if info["turn"] == a.seat:
        await relay.move(a, 1)
        after = 2
    await relay.away(a)
    await relay.move(b, after)
    deadline = time.monotonic() + 5
    while len(relay.service.pushes_to(browser)) < 2 and time.monotonic() < deadline:
        await relay.settled()
        await relay.server.app[PUSH][0].idle()
        await asyncio.sleep(0.05)
    kinds = [push.json()["kind"] for push in relay.service.pushes_to(browser)]
    assert kinds == ["turn", "clock_low"]
    low = relay.service.pushes_to(browser)[1]
    assert low.headers["urgency"] == "high" and "left on your clock" in low.json()["body"]


async def test_a_challenge_is_pushed_to_the_challenged_key(relay: Relay) -> None:
    ann, bob = key(), key()
    browser = await relay.subscribe(ann)
    # Ann must have sought once to be found by her public id.
    a, _ = await relay.pair((ann, bob))
    _, info = await relay.wire.call("GET", f"/v1/matches/{a.match}")
    public = info["players"][a.seat]
    status, body = await relay.wire.call(
        "POST", "/v1/player/challenges",
        {"to": public, "game": "xand0", "colour": "random", "name": "Bob"},
        {"Authorization": f"Bearer {bob}"},
    )  # fmt: skip
    assert status == 201, body
    await relay.settled()
    [push] = [p for p in relay.service.pushes_to(browser) if p.json()["kind"] == "challenge"]
    assert push.json()["body"] == "Bob challenges you to xand0."
    assert push.json()["url"] == "index.html"

"""The table around a match over HTTP (docs/protocol.md, "The table"): names, the table
carried by event polls, offers and their answers, claims, chat and its limits, and presence
learnt from a held poll whose client goes away, on every HTTP layer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import orjson
import pytest

from relay.core.table import AWAY
from tests.relay.conftest import Make
from tests.support.relay_process import RelayProcess, quick_flags


class Seat:
    """One seat's client: its ticket and calls made with its token."""

    def __init__(self, client: Any, ticket: dict[str, Any]) -> None:
        self.client = client
        self.match: str = ticket["match"]
        self.seat: int = ticket["seat"]
        self.token: str = ticket["token"]

    @property
    def auth(self) -> dict[str, str]:
        """The seat's Authorization header."""
        return {"Authorization": f"Bearer {self.token}"}

    async def call(
        self, method: str, path: str, body: Any = None, auth: bool = True
    ) -> tuple[int, Any, Any]:
        """Calls .../matches/{match}/<path>; returns the status, the JSON and the headers."""
        async with self.client.request(
            method,
            f"/v1/matches/{self.match}/{path}" if path else f"/v1/matches/{self.match}",
            json=body,
            headers=self.auth if auth else {},
        ) as answer:
            return answer.status, await answer.json(), answer.headers

    async def ok(self, method: str, path: str, body: Any = None, auth: bool = True) -> Any:
        """call(), which must answer 200."""
        status, found, _ = await self.call(method, path, body, auth)
        assert status == 200, found
        return found

    async def refused(self, code: str, method: str, path: str, body: Any = None) -> Any:
        """call(), which must be refused with code; returns the answer's headers."""
        status, found, headers = await self.call(method, path, body)
        assert found["error"]["code"] == code, found
        assert status in (403, 409, 429), status
        return headers


async def seat_pair(client: Any, game: str = "tbl", **names: str) -> tuple[Seat, Seat]:
    """Seeks twice in a fresh room; returns (seat to move, the other)."""
    room = f"r{time.monotonic_ns()}"
    seats = []
    for key in ("a", "b"):
        body: dict[str, Any] = {"game": game, "room": room}
        if key in names:
            body["name"] = names[key]
        async with client.post("/v1/seek", json=body) as answer:
            assert answer.status == 201, await answer.text()
            seats.append(Seat(client, await answer.json()))
    found = await seats[0].ok("GET", "events?after=0")
    first = found["events"][0]["first"]
    return (seats[0], seats[1]) if first == seats[0].seat else (seats[1], seats[0])


# -- names ---------------------------------------------------------------------------------


async def test_names_are_trimmed_and_shown_to_everyone(make: Make) -> None:
    client = await make()
    x, _ = await seat_pair(client, a="  Ann  ", b="<i>Bö</i>")
    info = await x.ok("GET", "", auth=False)
    table = await x.ok("GET", "table", auth=False)
    assert info["names"] == table["names"]
    assert sorted(info["names"]) == ["<i>Bö</i>", "Ann"]
    async with client.get(f"/v1/matches/{x.match}/record") as answer:
        header = orjson.loads((await answer.read()).split(b"\n")[0])
    assert header["names"] == info["names"] and header["chat"] == 0


@pytest.mark.parametrize(
    "name", ["", "   ", "x" * 33, "tab\there", "rtl\u202eevil", "bell\x07", 7, ["Ann"]]
)
async def test_a_bad_name_is_refused_with_nothing_seated(refusing: Any, name: object) -> None:
    client = refusing
    async with client.post("/v1/seek", json={"game": "tbl", "name": name}) as answer:
        found = await answer.json()
    assert answer.status == 400 and found["error"]["code"] == "request/invalid", found
    assert "'name'" in found["error"]["message"]


async def test_names_with_unicode_tricks_are_refused(make: Make) -> None:
    client = await make()
    tricks = [
        "zero\u200bwidth", "\u0410dmin", "Zalgo" + "\u0336" * 31, "tag\U000e0041", "\u3164",
    ]  # fmt: skip
    for name in tricks:
        async with client.post("/v1/seek", json={"game": "tbl", "name": name}) as answer:
            found = await answer.json()
        assert answer.status == 400 and found["error"]["code"] == "request/invalid", found
        assert "'name'" in found["error"]["message"] or repr(name) in found["error"]["message"]


async def test_a_name_that_looks_like_another_keys_is_refused(make: Make) -> None:
    client = await make()
    ann, bob = "a" * 43, "b" * 43

    async def seek(name: str, player: str | None) -> tuple[int, Any]:
        body = {"game": "names", "room": name.encode().hex(), "name": name}
        if player is not None:
            body["player"] = player
        async with client.post("/v1/seek", json=body) as answer:
            return answer.status, await answer.json()

    assert (await seek("BOB", ann))[0] == 201
    assert (await seek("bob", ann))[0] == 201  # its holder may show it as it likes
    for name, player in [("\u0412\u041e\u0412", bob), ("B0B", None), ("BOB", bob)]:
        status, found = await seek(name, player)
        assert (status, found["error"]["code"]) == (409, "name/taken"), found
        assert repr(name) in found["error"]["message"]
    assert (await seek("Rob", bob))[0] == 201


async def test_a_relay_without_names_shows_none() -> None:
    with RelayProcess(*quick_flags(), "--no-names") as relay:
        async with aiohttp.ClientSession(relay.url) as client:
            x, _ = await seat_pair(client, a="Ann", b="Bob")
            assert (await x.ok("GET", "", auth=False))["names"] == [None, None]
            assert (await x.ok("GET", "table"))["names"] == [None, None]


# -- the table in the event polls ----------------------------------------------------------


async def test_an_event_poll_with_table_carries_it_and_is_woken_by_it(make: Make) -> None:
    client = await make(hold=5.0)
    x, y = await seat_pair(client, a="Ann")
    first = await x.ok("GET", "events?after=0&table=0")
    assert [event["type"] for event in first["events"]] == ["started"]
    version = first["table"]["version"]
    assert first["table"]["presence"] == [{"here": True}, {"here": True}]
    # Nothing new: the poll is held, and a chat line of the partner ends it at once.
    poll = asyncio.ensure_future(x.ok("GET", f"events?after=1&table={version}"))
    await asyncio.sleep(0.3)
    assert not poll.done()
    said = time.monotonic()
    assert (await y.ok("POST", "chat", {"text": "<b>hi</b> & bye"}))["n"] == 1
    woken = await asyncio.wait_for(poll, 3.0)
    assert time.monotonic() - said < 1.0
    assert woken["events"] == []
    assert [line["text"] for line in woken["table"]["chat"]] == ["<b>hi</b> & bye"]
    # chat=N reads only the lines above N; a spectator reads no chat (--chat seats).
    again = await x.ok("GET", "events?after=1&table=0&chat=1")
    assert again["table"]["chat"] == []
    watched = await x.ok("GET", "events?after=0&table=0", auth=False)
    assert watched["table"]["chat"] == [] and watched["table"]["names"] == first["table"]["names"]
    # A poll whose table is current carries no table.
    await x.ok("POST", "moves", {"after": 1, "move": "11"})
    plain = await y.ok("GET", f"events?after=1&table={woken['table']['version']}")
    assert "table" not in plain and plain["events"][0]["move"] == "11"


async def test_a_held_move_post_with_table_is_woken_by_it(make: Make) -> None:
    client = await make(hold=5.0)
    x, y = await seat_pair(client)
    version = (await x.ok("GET", "table"))["version"]
    post = asyncio.ensure_future(
        x.ok("POST", f"moves?wait=5&table={version}", {"after": 1, "move": "11"})
    )
    await asyncio.sleep(0.3)
    assert not post.done()
    await y.ok("POST", "offer", {"kind": "draw", "after": 2})
    woken = await asyncio.wait_for(post, 3.0)
    assert (woken["seq"], woken["events"]) == (2, [])
    assert woken["table"]["offer"]["state"] == "offered"
    # Held again with the new version, it answers at the reply, without a table.
    newer = woken["table"]["version"]
    await x.ok("POST", "answer", {"accept": False})
    status, refused, _ = await x.call(
        "POST", f"moves?wait=1&table={newer}", {"after": 2, "move": "00"}
    )
    assert refused["error"]["code"] == "turn/not_yours" and status == 409


async def test_chat_to_everyone_and_in_the_record() -> None:
    with RelayProcess(*quick_flags(), "--chat", "all") as relay:
        async with aiohttp.ClientSession(relay.url) as client:
            x, y = await seat_pair(client)
            await y.ok("POST", "chat", {"text": "good luck"})
            watched = await x.ok("GET", "table", auth=False)
            assert [line["text"] for line in watched["chat"]] == ["good luck"]
            async with client.get(f"/v1/matches/{x.match}/record") as answer:
                lines = [orjson.loads(line) for line in (await answer.read()).splitlines()]
            assert lines[0]["chat"] == 1 and lines[0]["events"] == 1
            assert lines[-1]["type"] == "chat" and lines[-1]["text"] == "good luck"


async def test_the_record_holds_the_chat_for_a_seat_only_by_default(make: Make) -> None:
    client = await make()
    x, y = await seat_pair(client)
    await y.ok("POST", "chat", {"text": "gg"})
    async with client.get(f"/v1/matches/{x.match}/record") as answer:
        public = (await answer.read()).splitlines()
    async with client.get(f"/v1/matches/{x.match}/record", headers=x.auth) as answer:
        own = (await answer.read()).splitlines()
    assert orjson.loads(public[0])["chat"] == 0 and len(public) == 2
    assert orjson.loads(own[0])["chat"] == 1 and orjson.loads(own[-1])["text"] == "gg"


# -- offers, answers, claims ---------------------------------------------------------------


async def test_a_draw_offered_declined_then_agreed(make: Make) -> None:
    client = await make()
    x, y = await seat_pair(client)
    offered = await y.ok("POST", "offer", {"kind": "draw", "after": 1})
    assert offered["offer"] == {"kind": "draw", "by": y.seat, "at": 1, "state": "offered",
                                "count": None}  # fmt: skip
    await x.refused("offer/pending", "POST", "offer", {"kind": "takeback", "after": 1})
    declined = await x.ok("POST", "answer", {"accept": False})
    assert declined["seq"] is None and declined["table"]["offer"]["state"] == "declined"
    await y.refused("offer/declined", "POST", "offer", {"kind": "draw", "after": 1})
    await x.refused("offer/none", "POST", "answer", {"accept": True, "after": 1})
    await x.ok("POST", "moves", {"after": 1, "move": "11"})
    await x.ok("POST", "offer", {"kind": "draw", "after": 2})
    agreed = await y.ok("POST", "answer", {"accept": True, "after": 2})
    assert agreed["seq"] == 3 and agreed["table"]["offer"]["state"] == "accepted"
    ended = await x.ok("GET", "events?after=2")
    assert ended["events"] == [{"seq": 3, "type": "ended", "reason": "drawn", "seat": y.seat}]
    await x.refused("offer/not_playing", "POST", "offer", {"kind": "draw", "after": 3})


async def test_a_takeback_accepted_appends_an_undo(make: Make) -> None:
    client = await make()
    x, y = await seat_pair(client)
    await x.refused("takeback/none", "POST", "offer", {"kind": "takeback", "after": 1})
    await x.ok("POST", "moves", {"after": 1, "move": "11"})
    await x.refused("turn/stale", "POST", "offer", {"kind": "takeback", "after": 1})
    asked = await x.ok("POST", "offer", {"kind": "takeback", "after": 2})
    assert asked["offer"]["count"] == 1
    assert (await y.ok("POST", "answer", {"accept": True, "after": 2}))["seq"] == 3
    undo = (await y.ok("GET", "events?after=2"))["events"]
    assert undo == [{"seq": 3, "type": "undo", "seat": x.seat, "count": 1}]
    assert (await x.ok("GET", "", auth=False))["turn"] == x.seat


async def test_a_claim_refused_early_then_granted() -> None:
    with RelayProcess(*quick_flags(), "--claim-after", "1") as relay:
        async with aiohttp.ClientSession(relay.url) as client:
            x, y = await seat_pair(client)
            await x.refused("claim/not_stalled", "POST", "claim", {"after": 1})
            await y.refused("claim/not_stalled", "POST", "claim", {"after": 1})
            table = await y.ok("GET", "table")
            assert 0 < table["claim_in"] <= 1 and table["claim_after"] == 1.0
            await asyncio.sleep(1.2)
            assert (await y.ok("POST", "claim", {"after": 1}))["seq"] == 2
            ended = (await x.ok("GET", "events?after=1"))["events"][0]
            assert (ended["reason"], ended["seat"]) == ("stalled", x.seat)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("offer", {"kind": "rematch", "after": 1}),
        ("offer", {"kind": "draw"}),
        ("answer", {"accept": "yes"}),
        ("answer", {"accept": True}),
        ("claim", {}),
        ("chat", {"text": ""}),
        ("chat", {"text": "x" * 301}),
        ("chat", {"text": "line\nbreak"}),
        ("chat", {}),
    ],
)
async def test_bad_table_bodies_are_refused(refusing: Any, path: str, body: Any) -> None:
    client = refusing
    x, _ = await seat_pair(client)
    status, found, _ = await x.call("POST", path, body)
    assert (status, found["error"]["code"]) == (400, "request/invalid"), found


async def test_writes_need_the_seat_token(make: Make) -> None:
    client = await make()
    x, _ = await seat_pair(client)
    for path in ("offer", "answer", "claim", "chat"):
        status, found, _ = await x.call("POST", path, {"text": "hi"}, auth=False)
        assert (status, found["error"]["code"]) == (401, "auth/required")


# -- chat limits ---------------------------------------------------------------------------


async def test_chat_is_rate_limited_per_seat() -> None:
    with RelayProcess(*quick_flags(), "--chat-per-minute", "3") as relay:
        async with aiohttp.ClientSession(relay.url) as client:
            x, y = await seat_pair(client)
            for n in range(3):
                await x.ok("POST", "chat", {"text": f"line {n}"})
            headers = await x.refused("chat/too_fast", "POST", "chat", {"text": "more"})
            assert int(headers["Retry-After"]) >= 1
            # The partner has its own allowance.
            await y.ok("POST", "chat", {"text": "mine"})


async def test_offers_and_withdrawals_past_the_pace_are_refused_with_retry_after(
    make: Make,
) -> None:
    client = await make()
    x, y = await seat_pair(client)
    for _ in range(5):  # ten a minute by default (--offers-per-minute)
        await y.ok("POST", "offer", {"kind": "draw", "after": 1})
        await y.ok("POST", "answer", {"accept": False})  # withdrawn: counted too
    headers = await y.refused("offer/too_fast", "POST", "offer", {"kind": "draw", "after": 1})
    assert int(headers["Retry-After"]) >= 1
    await x.ok("POST", "offer", {"kind": "draw", "after": 1})  # the partner is paced apart


async def test_a_full_chat_is_refused() -> None:
    with RelayProcess(*quick_flags(), "--chat-per-minute", "100000") as relay:
        async with aiohttp.ClientSession(relay.url) as client:
            x, _ = await seat_pair(client)
            for n in range(200):
                await x.ok("POST", "chat", {"text": f"line {n}"})
            await x.refused("chat/full", "POST", "chat", {"text": "one more"})


async def test_a_relay_without_chat_refuses_it() -> None:
    with RelayProcess(*quick_flags(), "--chat", "off") as relay:
        async with aiohttp.ClientSession(relay.url) as client:
            x, _ = await seat_pair(client)
            await x.refused("chat/off", "POST", "chat", {"text": "hi"})
            assert (await x.ok("GET", "table"))["chat"] == []


# -- presence ------------------------------------------------------------------------------


@pytest.fixture(params=["front", "no-front"])
async def relay(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """Returns the URL of a relay process (the front, or aiohttp alone) with a hold of 10 s."""
    extra = ("--no-front",) if request.param == "no-front" else ()
    with RelayProcess(*quick_flags(hold=10), *extra) as started:
        yield started.url


async def table_of(seat: Seat, version: int) -> dict[str, Any]:
    """Polls the seat's match until its table is above version (for up to 10 s)."""
    found = await asyncio.wait_for(seat.ok("GET", f"table?after={version}&wait=10"), 12)
    return dict(found)


async def test_a_closed_poll_shows_its_seat_away_and_a_new_poll_brings_it_back(
    relay: str,
) -> None:
    async with aiohttp.ClientSession(relay) as client:
        x, y = await seat_pair(client)
        start = await x.ok("GET", "table")
        # y holds a poll on a connection of its own, then its client goes away.
        gone = aiohttp.ClientSession(relay)
        poll = asyncio.ensure_future(
            gone.get(f"/v1/matches/{y.match}/events?after=1&table=0", headers=y.auth)
        )
        first = await asyncio.wait_for(poll, 5)
        version = (await first.json())["table"]["version"]
        first.release()
        poll = asyncio.ensure_future(
            gone.get(f"/v1/matches/{y.match}/events?after=1&table={version}", headers=y.auth)
        )
        await asyncio.sleep(0.5)
        assert not poll.done()
        closed = time.monotonic()
        poll.cancel()
        await gone.close()
        table = await table_of(x, start["version"])
        seen = time.monotonic() - closed
        assert table["presence"][y.seat]["here"] is False, table
        assert AWAY - 0.5 < seen < AWAY + 3, seen
        assert 0 < table["presence"][y.seat]["abandon_in"] <= 30
        assert table["presence"][x.seat] == {"here": True}
        # y comes back: its first poll shows it here again.
        back = await y.ok("GET", "events?after=1&wait=0")
        assert back["events"] == []
        again = await table_of(x, table["version"])
        assert again["presence"][y.seat] == {"here": True}


@pytest.mark.parametrize("front", [(), ("--no-front",)], ids=["front", "no-front"])
async def test_a_seeker_whose_poll_closes_is_dropped_and_the_next_meets_a_live_one(
    front: tuple[str, ...],
) -> None:
    # No pagehide, no cancel: the seeker's client dies with its poll held (a crash, a lost
    # tab). Within --seek-grace (1 s here) of the poll's end the seek is dropped, never paired.
    game = f"ghost{time.monotonic_ns()}"
    with RelayProcess(*quick_flags(hold=10), "--seek-grace", "1", *front) as started:
        await _ghost_seek_is_dropped(started.url, game)


async def _ghost_seek_is_dropped(relay: str, game: str) -> None:
    async with aiohttp.ClientSession(relay) as client:
        async with client.post("/v1/seek", json={"game": game}) as answer:
            ghost = Seat(client, await answer.json())
        gone = aiohttp.ClientSession(relay)
        poll = asyncio.ensure_future(
            gone.get(f"/v1/matches/{ghost.match}/events?after=0", headers=ghost.auth)
        )
        await asyncio.sleep(0.5)
        poll.cancel()
        await gone.close()
        await asyncio.sleep(1 + 1.5)  # --seek-grace, and the reaper's second
        async with client.post("/v1/seek", json={"game": game}) as answer:
            fresh = Seat(client, await answer.json())
        assert fresh.match != ghost.match and fresh.seat == 0
        status, found, _ = await ghost.call("GET", "events?after=0&wait=0")
        assert (status, found["error"]["code"]) == (410, "match/expired")

        # A live seeker that keeps polling is met: its held poll is answered empty as the
        # second seeker joins, and it polls again at once, which starts the match.
        async def keep_polling() -> Any:
            while not (found := await fresh.ok("GET", "events?after=0&wait=8"))["events"]:
                pass
            return found

        keep = asyncio.ensure_future(keep_polling())
        await asyncio.sleep(0.2)  # the poll is held
        async with client.post("/v1/seek", json={"game": game}) as answer:
            met = await answer.json()
        assert (met["match"], met["seat"]) == (fresh.match, 1)
        assert (await asyncio.wait_for(keep, 10))["events"][0]["type"] == "started"


@pytest.mark.parametrize("chat", ["-1", "x", "1.5", "9" * 19])
@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "events?after=0&wait=0&chat=", None),
        ("GET", "events?after=0&wait=0&table=0&chat=", None),
        ("POST", "moves?wait=0&chat=", {"after": 1, "move": "m"}),
    ],
)
async def test_a_bad_chat_cursor_is_refused_with_or_without_a_table_to_send(
    refusing: Any, chat: str, method: str, path: str, body: Any
) -> None:
    client = refusing
    x, o = await seat_pair(client)
    mover = x if x.seat == (await x.ok("GET", "events?after=0"))["events"][0]["first"] else o
    status, found, _ = await mover.call(method, path + chat, body)
    assert (status, found["error"]["code"]) == (400, "request/invalid"), found
    assert "'chat'" in found["error"]["message"]
    assert (await x.ok("GET", "events?after=0"))["events"][-1]["type"] == "started"

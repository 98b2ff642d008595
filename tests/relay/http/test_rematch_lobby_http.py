"""Rematches and the lobby over HTTP, against a real relay process: long-polls that wake,
and malformed requests that leave matches intact."""

from __future__ import annotations

import asyncio
import uuid

import aiohttp

from tests.relay.wire import Wire

TIMEOUT = aiohttp.ClientTimeout(total=20)


def game_key() -> str:
    """Returns a game key of this test's own, so that other tests' lobbies never mix in."""
    return "lobby-" + uuid.uuid4().hex[:12]


async def test_rematch_poll_wakes_at_the_offer_and_the_new_match_swaps_first(
    relay_url: str,
) -> None:
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        wire = Wire(session, relay_url)
        x, o = await wire.pair(game_key())
        status, _ = await wire.post(x, "resign", {})
        assert status == 200
        poll = asyncio.create_task(
            wire.call("GET", f"/v1/matches/{x.match}/rematch?after=0&wait=10", None, x.auth)
        )
        await asyncio.sleep(0.1)
        assert not poll.done()
        status, offered = await wire.post(o, "rematch", {"offer": True})
        assert status == 200 and offered["state"] == "offered"
        async with asyncio.timeout(3):
            status, heard = await poll
        assert status == 200 and heard == offered
        status, accepted = await wire.post(x, "rematch", {"offer": True})
        assert accepted["state"] == "accepted" and accepted["first"] == o.seat
        new = accepted["match"]
        started = (await wire.events(new, 0, x))[0]
        assert started == {"seq": 1, "type": "started", "first": o.seat}
        status, body = await wire.call(
            "POST", f"/v1/matches/{new}/moves", {"after": 1, "move": "m"}, o.auth
        )
        assert (status, body) == (200, {"seq": 2})


async def test_malformed_rematch_calls_are_refused_and_change_nothing(relay_url: str) -> None:
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        wire = Wire(session, relay_url)
        x, o = await wire.pair(game_key())
        status, body = await wire.post(x, "rematch", {"offer": True})
        assert (status, body["error"]["code"]) == (409, "rematch/not_finished")
        for bad in ({}, {"offer": 1}, {"offer": None}):
            await wire.post(x, "resign", {})
            status, body = await wire.post(o, "rematch", bad)
            assert (status, body["error"]["code"]) == (400, "request/invalid"), bad
        status, body = await wire.call("POST", f"/v1/matches/{x.match}/rematch", {"offer": True})
        assert (status, body["error"]["code"]) == (401, "auth/required")
        status, body = await wire.call("GET", f"/v1/matches/{x.match}/rematch")
        assert status == 200 and (body["state"], body["version"]) == ("none", 0)
        status, body = await wire.call("GET", f"/v1/matches/{x.match}")
        assert body["status"] == "finished"


async def test_lobby_poll_wakes_at_a_public_seek_and_lists_the_match_live(
    relay_url: str,
) -> None:
    game = game_key()
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        wire = Wire(session, relay_url)
        status, empty = await wire.call("GET", f"/v1/lobby?game={game}")
        assert status == 200
        assert empty == {"game": game, "version": 0, "open": [], "live": [], "recent": []}
        poll = asyncio.create_task(wire.call("GET", f"/v1/lobby?game={game}&after=0&wait=10"))
        await asyncio.sleep(0.1)
        assert not poll.done()
        # A private seek is not listed; a public one is.
        await wire.seek(game, room="private")
        status, ticket = await wire.call(
            "POST", "/v1/seek", {"game": game, "room": "open-1", "public": True}
        )
        assert status == 201
        async with asyncio.timeout(3):
            status, lobby = await poll
        assert [(e["match"], e["room"], e["status"]) for e in lobby["open"]] == [
            (ticket["match"], "open-1", "waiting")
        ]
        await wire.seek(game, room="open-1")
        status, lobby = await wire.call("GET", f"/v1/lobby?game={game}")
        assert lobby["open"] == [] and [e["match"] for e in lobby["live"]] == [ticket["match"]]
        assert lobby["live"][0]["moves"] == 0


async def test_lobby_entries_name_their_time_control(relay_url: str) -> None:
    game = game_key()
    control = {"kind": "deadline", "per_move": 86400}
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        wire = Wire(session, relay_url)
        for room, chosen in (("plain", None), ("daily", control)):
            body = {"game": game, "room": room, "public": True, "time_control": chosen}
            status, _ = await wire.call("POST", "/v1/seek", body)
            assert status == 201
        status, lobby = await wire.call("GET", f"/v1/lobby?game={game}")
        assert status == 200
        assert [(e["room"], e["time_control"]) for e in lobby["open"]] == [
            ("daily", control),
            ("plain", None),
        ]


async def test_malformed_lobby_and_seek_fields_are_refused(relay_url: str) -> None:
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        wire = Wire(session, relay_url)
        for path in ("/v1/lobby", "/v1/lobby?game=bad%20name", "/v1/lobby?game=g&after=-1"):
            status, body = await wire.call("GET", path)
            assert (status, body["error"]["code"]) == (400, "request/invalid"), path
        status, body = await wire.call("POST", "/v1/seek", {"game": "g", "public": "yes"})
        assert (status, body["error"]["code"]) == (400, "request/invalid")

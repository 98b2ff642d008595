"""Correspondence over HTTP, alike on both HTTP layers (the aiohttp application in process,
and a real relay process whose lean front serves these): a player key lists its matches and
resumes each as the bearer of its seat."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.relay.conftest import Make
from tests.relay.http.client import Client, auth, expect

ANN = "A" * 40
BOB = "B" * 40
DEADLINE = {"kind": "deadline", "per_move": 3 * 86400}


async def seek(client: Client, **body: Any) -> dict[str, Any]:
    """Seeks and returns the ticket."""
    answer = await client.post("/v1/seek", json=body)
    assert answer.status == 201, await answer.text()
    ticket: dict[str, Any] = await answer.json()
    return ticket


async def matches(client: Client, player: str) -> list[dict[str, Any]]:
    """Returns the player key's list."""
    answer = await client.get("/v1/player/matches", headers={"Authorization": f"Bearer {player}"})
    assert answer.status == 200, await answer.text()
    found: list[dict[str, Any]] = (await answer.json())["matches"]
    return found


async def test_a_player_key_lists_its_matches_and_resumes_them(make: Make) -> None:
    client: Client = await make()
    assert await matches(client, ANN) == []
    corr = {"game": "mail", "time_control": DEADLINE}
    a = await seek(client, **corr, player=ANN, contact="mailto:ann@example.org")
    b = await seek(client, **corr, player=BOB)
    waiting = await seek(client, game="other", player=ANN)
    listed = await matches(client, ANN)
    assert [row["match"] for row in listed] == [a["match"], waiting["match"]]
    row = listed[0]
    assert set(row) == {
        "match", "game", "version", "room", "seat", "status", "turn", "your_turn",
        "time_control", "left", "last", "first", "names", "players",
    }  # fmt: skip
    assert row["seat"] == 0 and row["status"] == "playing" and row["game"] == "mail"
    assert row["time_control"] == DEADLINE and row["last"] == 1
    assert row["your_turn"] == (row["turn"] == 0)
    assert len(row["left"]) == 2 and all(0 < left <= 3 * 86400 for left in row["left"])
    assert listed[1]["status"] == "waiting" and listed[1]["left"] is None
    assert "mailto" not in str(listed)
    # The player key is the bearer of its seat: events, moves, passes, resign.
    mover, other = (ANN, BOB) if row["turn"] == 0 else (BOB, ANN)
    match = a["match"]
    events = await client.get(f"/v1/matches/{match}/events?after=0", headers=auth(mover))
    assert [event["type"] for event in (await events.json())["events"]] == ["started"]
    moved = await client.post(
        f"/v1/matches/{match}/moves?wait=0", json={"after": 1, "move": "e4"}, headers=auth(mover)
    )
    assert (await moved.json())["seq"] == 2
    moved = await client.post(
        f"/v1/matches/{match}/moves", json={"after": 2, "move": "e5"}, headers=auth(other)
    )
    assert (await moved.json())["seq"] == 3
    passed = await client.post(f"/v1/matches/{match}/pass", json={"after": 3}, headers=auth(mover))
    assert (await passed.json())["seq"] == 4
    first = (await matches(client, other))[0]
    assert first["match"] == match and first["your_turn"] is True
    resigned = await client.post(f"/v1/matches/{match}/resign", json={}, headers=auth(other))
    assert (await resigned.json())["seq"] == 5
    listed = await matches(client, ANN)
    assert [row["match"] for row in listed] == [waiting["match"], match]
    assert listed[-1]["result"] == {"reason": "resigned", "seat": 1 if other == BOB else 0}
    # The seat tokens still work, and the waiting seek is cancelled with the player key.
    cancelled = await client.post(f"/v1/matches/{waiting['match']}/cancel", headers=auth(ANN))
    assert cancelled.status == 200
    assert [row["match"] for row in await matches(client, ANN)] == [match]
    assert b["token"] != ANN


async def test_player_matches_needs_a_bearer_key(make: Make) -> None:
    client: Client = await make()
    await expect(await client.get("/v1/player/matches"), 401, "auth/required")
    answer = await client.get("/v1/player/matches", headers={"Authorization": "Basic x"})
    await expect(answer, 401, "auth/required")
    malformed = await client.get("/v1/player/matches", headers={"Authorization": "Bearer nobody"})
    await expect(malformed, 403, "auth/bad_token")
    unknown = await client.get(
        "/v1/player/matches", headers={"Authorization": "Bearer " + "N" * 40}
    )
    assert unknown.status == 200 and await unknown.json() == {"matches": []}


async def test_a_wrong_player_key_opens_no_seat(make: Make) -> None:
    client: Client = await make()
    a = await seek(client, game="mail", player=ANN)
    await seek(client, game="mail", player=BOB)
    answer = await client.post(f"/v1/matches/{a['match']}/resign", json={}, headers=auth("C" * 40))
    await expect(answer, 403, "auth/bad_token")


async def test_held_polls_with_a_player_key_are_limited(make: Make) -> None:
    client: Client = await make(polls_per_seat=1, hold=5.0)
    a = await seek(client, game="mail", player=ANN)
    await seek(client, game="mail", player=BOB)
    # Seat 0 polls again (with its player key), as a live client does: that starts the match.
    events = await client.get(f"/v1/matches/{a['match']}/events?after=0", headers=auth(ANN))
    first = (await events.json())["events"][0]["first"]
    waiter, mover = (ANN, BOB) if first == 1 else (BOB, ANN)
    url = f"/v1/matches/{a['match']}/events?after=1"
    held = asyncio.create_task(client.get(url, headers=auth(waiter)))
    await asyncio.sleep(0.1)
    await expect(await client.get(url, headers=auth(waiter)), 429, "limit/polls")
    await client.post(
        f"/v1/matches/{a['match']}/moves", json={"after": 1, "move": "m"}, headers=auth(mover)
    )
    async with asyncio.timeout(3):
        answer = await held
    assert (await answer.json())["events"][0]["move"] == "m"

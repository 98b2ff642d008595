"""Every documented error code and every limit, answered alike by both HTTP layers: the
aiohttp application (in-process) and a real relay process, whose lean front serves these."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from pytest_aiohttp import AiohttpClient

from relay import CODES, Config, MemoryStore, RelayError, create_app
from relay.core.model import Event
from relay.store.memory.matches import MemoryMatches
from relay.store.memory.registry import Registry
from tests.relay.conftest import Make
from tests.relay.http.client import JSON, Client, auth, expect


async def seek(client: Client, **body: str) -> dict[str, Any]:
    """Seeks and returns the ticket."""
    answer = await client.post("/v1/seek", json={"game": "xand0", **body})
    assert answer.status == 201, await answer.text()
    ticket: dict[str, Any] = await answer.json()
    return ticket


async def pair(client: Client, **body: str) -> tuple[dict[str, Any], dict[str, Any], int]:
    """Pairs two seekers; returns (seat to move, other seat, last event number)."""
    a = await seek(client, **body)
    b = await seek(client, **body)
    # Seat 0 polls again, as a live client does: that starts the paired match.
    url = f"/v1/matches/{a['match']}/events?after=0"
    events = await (await client.get(url, headers=auth(a["token"]))).json()
    first = events["events"][0]["first"]
    return (a, b, 1) if first == a["seat"] else (b, a, 1)


@pytest.fixture
async def client(make: Make) -> Client:
    """Returns a client of a relay with the default limits."""
    client: Client = await make()
    return client


# -- request/... ---------------------------------------------------------------------------


async def test_malformed_json_is_bad_json(client: Client) -> None:
    answer = await client.post("/v1/seek", data=b'{"game": ', headers=JSON)
    await expect(answer, 400, "request/bad_json")
    answer = await client.post("/v1/seek", data=b'{"game": "\xff"}', headers=JSON)
    await expect(answer, 400, "request/bad_json")


@pytest.mark.parametrize(
    "body",
    [
        [1, 2],
        {},
        {"game": 5},
        {"game": ""},
        {"game": "has space"},
        {"game": "x" * 65},
        {"game": "xand0", "room": ["r"]},
        {"game": "xand0", "version": "1/2"},
        {"game": "xand0", "player": "short"},
        {"game": "xand0", "player": "P" * 129},
        {"game": "xand0", "player": "P" * 31 + "!"},
        {"game": "xand0", "player": 12345},
        {"game": "xand0", "contact": ""},
        {"game": "xand0", "contact": "c" * 201},
        {"game": "xand0", "contact": "line\nbreak"},
        {"game": "xand0", "contact": ["mail"]},
    ],
)
async def test_bad_seek_fields_are_invalid(refusing: Client, body: object) -> None:
    answer = await refusing.post("/v1/seek", json=body)
    await expect(answer, 400, "request/invalid")


async def test_bad_player_and_contact_say_what_they_must_be(client: Client) -> None:
    answer = await client.post("/v1/seek", json={"game": "xand0", "player": "short"})
    message = (await expect(answer, 400, "request/invalid"))["error"]["message"]
    assert "'player'" in message and "32 to 128" in message
    for contact in ("\u0007", "a\u008db", "", "x" * 201, 7):
        answer = await client.post("/v1/seek", json={"game": "xand0", "contact": contact})
        message = (await expect(answer, 400, "request/invalid"))["error"]["message"]
        assert "'contact'" in message and "200" in message
    # Any other text is a handle, as opaque as the relay keeps it: spaces, accents, emoji.
    for contact in ("mailto:zoë@example.org", "push:§¦ 🂡", "x" * 200):
        answer = await client.post("/v1/seek", json={"game": "contacts", "contact": contact})
        assert answer.status == 201, await answer.text()
    answer = await client.get("/v1/player/matches", headers=auth("not-a-key"))
    message = (await expect(answer, 403, "auth/bad_token"))["error"]["message"]
    assert "not a player key" in message


async def test_bad_move_fields_are_invalid(client: Client) -> None:
    x, _, last = await pair(client)
    url = f"/v1/matches/{x['match']}/moves"
    for body in (
        {"move": "11"},
        {"after": -1, "move": "11"},
        {"after": "1", "move": "11"},
        {"after": True, "move": "11"},
        {"after": last, "move": 11},
        {"after": last},
        {"after": last, "move": "11", "end": "yes"},
    ):
        await expect(
            await client.post(url, json=body, headers=auth(x["token"])), 400, "request/invalid"
        )
    confirm = f"/v1/matches/{x['match']}/confirm"
    answer = await client.post(confirm, json={"after": 1, "agree": 1}, headers=auth(x["token"]))
    await expect(answer, 400, "request/invalid")


@pytest.mark.parametrize("after", ["-1", "abc", "1.5", "²", "9" * 30])
async def test_bad_after_parameter_is_invalid(refusing: Client, after: str) -> None:
    x, _, _ = await pair(refusing)
    answer = await refusing.get(f"/v1/matches/{x['match']}/events", params={"after": after})
    await expect(answer, 400, "request/invalid")


async def test_body_not_sent_as_json_is_refused(client: Client) -> None:
    answer = await client.post(
        "/v1/seek", data=b'{"game": "xand0"}', headers={"Content-Type": "text/plain"}
    )
    body = await expect(answer, 415, "request/content_type")
    assert "text/plain" in body["error"]["message"]
    answer = await client.post("/v1/seek", data={"game": "xand0"})
    await expect(answer, 415, "request/content_type")


async def test_oversized_body_is_too_large(make: Make) -> None:
    client = await make(max_body=1024)
    answer = await client.post("/v1/seek", data=b'{"game": "' + b"x" * 2000 + b'"}', headers=JSON)
    body = await expect(answer, 413, "request/too_large")
    assert "1024" in body["error"]["message"]
    await seek(client)


# -- route/... -----------------------------------------------------------------------------


async def test_unknown_path_and_method_are_json_errors(client: Client) -> None:
    await expect(await client.get("/v2/seek"), 404, "route/not_found")
    await expect(await client.get("/v1/seek"), 405, "route/method")


# -- auth/... ------------------------------------------------------------------------------


async def test_writes_need_a_bearer_token(client: Client) -> None:
    x, _, last = await pair(client)
    url = f"/v1/matches/{x['match']}/moves"
    await expect(await client.post(url, json={"after": last, "move": "1"}), 401, "auth/required")
    for header in ("Basic abc", "Bearer", "Bearer    ", x["token"]):
        answer = await client.post(
            url, json={"after": last, "move": "1"}, headers={"Authorization": header}
        )
        await expect(answer, 401, "auth/required")


async def test_wrong_token_is_refused_and_changes_nothing(client: Client) -> None:
    x, o, last = await pair(client)
    other, _, _ = await pair(client)
    for token in ("forged", other["token"], x["token"] + "x", x["token"][:-1]):
        for path, body in (
            ("moves", {"after": last, "move": "1"}),
            ("resign", {}),
            ("pass", {"after": last}),
        ):
            answer = await client.post(
                f"/v1/matches/{x['match']}/{path}", json=body, headers=auth(token)
            )
            await expect(answer, 403, "auth/bad_token")
        answer = await client.get(
            f"/v1/matches/{x['match']}/events", headers={"Authorization": f"Bearer {token}"}
        )
        await expect(answer, 403, "auth/bad_token")
    info = await (await client.get(f"/v1/matches/{x['match']}")).json()
    assert (info["status"], info["last"]) == ("playing", 1)
    assert o["match"] == x["match"]


# -- match/..., room/..., turn/..., move/... -----------------------------------------------


async def test_unknown_match_is_404(client: Client) -> None:
    x, _, _ = await pair(client)
    await expect(await client.get("/v1/matches/nope/events"), 404, "match/unknown")
    await expect(await client.get("/v1/matches/nope"), 404, "match/unknown")
    answer = await client.post(
        "/v1/matches/nope/moves", json={"after": 1, "move": "1"}, headers=auth(x["token"])
    )
    await expect(answer, 404, "match/unknown")


async def test_cancelled_seek_is_gone(client: Client) -> None:
    a = await seek(client, game="cancelme")
    url = f"/v1/matches/{a['match']}"
    answer = await client.post(url + "/cancel", headers=auth(a["token"]))
    assert answer.status == 200 and await answer.json() == {"cancelled": True}
    await expect(await client.get(url + "/events?after=0"), 410, "match/expired")
    await expect(await client.get(url), 410, "match/expired")


async def test_cancel_after_the_start_is_refused(client: Client) -> None:
    x, _, _ = await pair(client)
    answer = await client.post(f"/v1/matches/{x['match']}/cancel", headers=auth(x["token"]))
    await expect(answer, 409, "match/started")


async def test_move_before_the_partner_arrives_is_refused(client: Client) -> None:
    a = await seek(client, game="alone")
    answer = await client.post(
        f"/v1/matches/{a['match']}/moves", headers=auth(a["token"]), json={"after": 0, "move": "1"}
    )
    await expect(answer, 409, "match/not_started")


async def test_game_over_errors(client: Client) -> None:
    x, o, last = await pair(client)
    base = f"/v1/matches/{x['match']}"
    answer = await client.post(base + "/confirm", json={"after": last}, headers=auth(o["token"]))
    await expect(answer, 409, "match/not_ending")
    answer = await client.post(
        base + "/moves", json={"after": last, "move": "w", "end": True}, headers=auth(x["token"])
    )
    assert await answer.json() == {"seq": 2}
    answer = await client.post(
        base + "/moves", json={"after": 2, "move": "z"}, headers=auth(o["token"])
    )
    await expect(answer, 409, "match/ending")
    answer = await client.post(
        base + "/confirm", json={"after": 2, "agree": True}, headers=auth(o["token"])
    )
    assert await answer.json() == {"seq": 3}
    answer = await client.post(
        base + "/moves", json={"after": 3, "move": "z"}, headers=auth(o["token"])
    )
    await expect(answer, 409, "match/finished")


async def test_rematch_errors(client: Client) -> None:
    x, o, _ = await pair(client)
    base = f"/v1/matches/{x['match']}/rematch"
    answer = await client.post(base, json={"offer": True}, headers=auth(x["token"]))
    await expect(answer, 409, "rematch/not_finished")
    await client.post(f"/v1/matches/{x['match']}/resign", json={}, headers=auth(o["token"]))
    answer = await client.post(base, json={"offer": "yes"}, headers=auth(x["token"]))
    await expect(answer, 400, "request/invalid")
    answer = await client.post(base, json={"offer": True}, headers=auth(o["token"][::-1]))
    await expect(answer, 403, "auth/bad_token")
    answer = await client.post(base, json={"offer": True})
    await expect(answer, 401, "auth/required")
    for seat in (x, o):
        answer = await client.post(base, json={"offer": True}, headers=auth(seat["token"]))
    assert (await answer.json())["state"] == "accepted"
    answer = await client.post(base, json={"offer": False}, headers=auth(x["token"]))
    await expect(answer, 409, "rematch/accepted")
    await expect(await client.get("/v1/matches/nope/rematch"), 404, "match/unknown")
    await expect(await client.get(f"{base}?after=x"), 400, "request/invalid")


async def test_room_errors(client: Client) -> None:
    await seek(client, room="den", version="1")
    await expect(
        await client.post("/v1/seek", json={"game": "xand0", "room": "den", "version": "2"}),
        409,
        "room/version_mismatch",
    )
    await seek(client, room="den", version="1")
    await expect(
        await client.post("/v1/seek", json={"game": "xand0", "room": "den", "version": "1"}),
        409,
        "room/full",
    )


async def test_a_player_key_never_plays_itself_in_a_room(client: Client) -> None:
    body = {"game": "xand0", "room": "mirror", "player": "P" * 40}
    assert (await client.post("/v1/seek", json=body)).status == 201
    error = await expect(await client.post("/v1/seek", json=body), 409, "room/same_player")
    assert "'mirror'" in error["error"]["message"]
    other = {**body, "player": "Q" * 40}
    assert (await (await client.post("/v1/seek", json=other)).json())["seat"] == 1


async def test_a_player_key_with_100_matches_not_finished_may_not_seek(make: Make) -> None:
    client = await make(seeks_per_minute=1000)
    for index in range(100):
        await seek(client, game=f"many{index}", player="P" * 40)
    answer = await client.post("/v1/seek", json={"game": "more", "player": "P" * 40})
    await expect(answer, 429, "player/too_many")
    assert int(answer.headers["Retry-After"]) >= 1


async def test_room_of_another_time_control_is_refused(client: Client) -> None:
    blitz = {"kind": "fischer", "base": 180, "increment": 2}
    body = {"game": "xand0", "room": "clock", "time_control": blitz}
    assert (await client.post("/v1/seek", json=body)).status == 201
    answer = await client.post("/v1/seek", json={"game": "xand0", "room": "clock"})
    error = await expect(answer, 409, "room/control_mismatch")
    assert '"increment":2' in error["error"]["message"]
    answer = await client.post("/v1/seek", json=body)
    assert answer.status == 201 and (await answer.json())["seat"] == 1


@pytest.mark.parametrize(
    "control",
    [
        "blitz",
        300,
        [],
        {"kind": "fischer", "base": 300},
        {"kind": "fischer", "base": 0, "increment": 0},
        {"kind": "fischer", "base": 300, "increment": 3601},
        {"kind": "fischer", "base": 2.5, "increment": 0},
        {"kind": "fischer", "base": 300, "increment": 1, "delay": 2},
        {"kind": "deadline", "per_move": 9},
        {"kind": "deadline", "per_move": 30 * 86400 + 1},
        {"kind": "bronstein", "base": 300, "increment": 1},
    ],
)
async def test_bad_time_control_is_refused_with_the_accepted_forms(
    refusing: Client, control: object
) -> None:
    answer = await refusing.post("/v1/seek", json={"game": "xand0", "time_control": control})
    error = await expect(answer, 400, "request/invalid")
    message = error["error"]["message"]
    assert "'time_control'" in message and "fischer" in message and "deadline" in message


async def test_turn_errors(client: Client) -> None:
    x, o, last = await pair(client)
    url = f"/v1/matches/{x['match']}/moves"
    answer = await client.post(url, json={"after": last, "move": "1"}, headers=auth(o["token"]))
    await expect(answer, 409, "turn/not_yours")
    answer = await client.post(url, json={"after": 0, "move": "1"}, headers=auth(x["token"]))
    body = await expect(answer, 409, "turn/stale")
    assert "0" in body["error"]["message"]


async def test_a_poll_past_the_logs_end_is_behind(client: Client) -> None:
    x, _, last = await pair(client)
    url = f"/v1/matches/{x['match']}/events?after={last + 3}"
    body = await expect(await client.get(url, headers=auth(x["token"])), 409, "match/behind")
    assert str(last) in body["error"]["message"]


async def test_move_longer_than_the_limit_is_refused(make: Make) -> None:
    client = await make(max_move=10)
    x, _, last = await pair(client)
    url = f"/v1/matches/{x['match']}/moves"
    answer = await client.post(
        url, json={"after": last, "move": "y" * 11}, headers=auth(x["token"])
    )
    await expect(answer, 413, "move/too_long")
    answer = await client.post(
        url, json={"after": last, "move": "\U0001f600" * 10}, headers=auth(x["token"])
    )
    assert await answer.json() == {"seq": 2}


# -- limit/... -----------------------------------------------------------------------------


async def test_seeks_per_client_are_limited(make: Make) -> None:
    client = await make(seeks_per_minute=3)
    for _ in range(3):
        await seek(client, game="rate")
    answer = await client.post("/v1/seek", json={"game": "rate"})
    await expect(answer, 429, "limit/seeks")
    assert 1 <= int(answer.headers["Retry-After"]) <= 20


async def test_requests_per_client_are_limited(make: Make) -> None:
    client = await make(requests_per_second=5)
    answers = [await client.get("/v1/matches/nope") for _ in range(14)]
    statuses = [answer.status for answer in answers]
    # A burst of twice the rate passes (as 404s here), then the client waits its turn.
    assert statuses[:10] == [404] * 10 and 429 in statuses[10:]
    limited = next(answer for answer in answers if answer.status == 429)
    await expect(limited, 429, "limit/requests")
    assert limited.headers["Retry-After"] == "1"


async def test_held_polls_per_seat_are_limited(make: Make) -> None:
    client = await make(polls_per_seat=1, hold=5.0)
    x, o, _ = await pair(client)
    url = f"/v1/matches/{x['match']}/events?after=1"
    held = asyncio.create_task(client.get(url, headers={"Authorization": f"Bearer {o['token']}"}))
    await asyncio.sleep(0.1)
    answer = await client.get(url, headers={"Authorization": f"Bearer {o['token']}"})
    await expect(answer, 429, "limit/polls")
    assert "Retry-After" in answer.headers
    spectator = await client.get(url + "&wait=0")
    assert (await spectator.json()) == {"events": []}
    await client.post(
        f"/v1/matches/{x['match']}/moves", json={"after": 1, "move": "m"}, headers=auth(x["token"])
    )
    async with asyncio.timeout(3):
        answer = await held
    assert (await answer.json())["events"][0]["move"] == "m"


async def test_held_lobby_polls_per_client_are_limited(make: Make) -> None:
    client = await make(polls_per_seat=1, hold=5.0)
    url = "/v1/lobby?game=held&after=0"
    held = [asyncio.create_task(client.get(url)) for _ in range(8)]  # 8 x --polls-per-seat
    await asyncio.sleep(0.2)
    answer = await client.get(url)
    await expect(answer, 429, "limit/polls")
    assert "Retry-After" in answer.headers
    assert (await (await client.get("/v1/lobby?game=held")).json())["version"] == 0
    body = {"game": "held", "room": "den", "public": True}
    assert (await client.post("/v1/seek", json=body)).status == 201
    async with asyncio.timeout(3):
        answers = await asyncio.gather(*held)
    assert all(answer.status == 200 for answer in answers)


async def test_waiting_matches_per_game_are_limited(make: Make) -> None:
    client = await make(max_waiting=2)
    await seek(client, game="busy", room="r1")
    await seek(client, game="busy", room="r2")
    answer = await client.post("/v1/seek", json={"game": "busy", "room": "r3"})
    await expect(answer, 429, "limit/waiting")
    assert "Retry-After" in answer.headers


async def test_a_full_log_refuses_moves_and_the_match_can_still_be_resigned(make: Make) -> None:
    client = await make(max_events=4)
    mover, other, last = await pair(client)
    seats = (mover, other)
    for seq in range(last, 4):  # 'started', then three moves fill the log
        seat = seats[(seq - last) % 2]
        answer = await client.post(
            f"/v1/matches/{seat['match']}/moves",
            json={"after": seq, "move": "1"},
            headers=auth(seat["token"]),
        )
        assert answer.status == 200, await answer.text()
    to_move = seats[(4 - last) % 2]
    path = f"/v1/matches/{to_move['match']}"
    answer = await client.post(
        f"{path}/moves", json={"after": 4, "move": "2"}, headers=auth(to_move["token"])
    )
    body = await expect(answer, 409, "match/too_long")
    assert "4 events" in body["error"]["message"]
    answer = await client.post(f"{path}/pass", json={"after": 4}, headers=auth(to_move["token"]))
    await expect(answer, 409, "match/too_long")
    answer = await client.post(f"{path}/resign", json={}, headers=auth(to_move["token"]))
    assert answer.status == 200 and (await answer.json())["seq"] == 5


# -- server/... ----------------------------------------------------------------------------


class _FailingMatches(MemoryMatches):
    """Matches whose reads fail as a store server gone away would, or break unexpectedly."""

    def __init__(self, registry: Registry, error: Exception) -> None:
        super().__init__(registry)
        self.error = error

    def poll_now(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        raise self.error


class _FailingStore(MemoryStore):
    """A memory store whose reads fail (_FailingMatches)."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.matches = self.immediate = _FailingMatches(self.registry, error)


async def test_unreachable_store_is_503_with_retry_after(aiohttp_client: AiohttpClient) -> None:
    store = _FailingStore(RelayError("server/unavailable", retry_after=2))
    client = await aiohttp_client(create_app(Config(hold=1.0), store))
    answer = await client.get("/v1/matches/m/events")
    await expect(answer, 503, "server/unavailable")
    assert answer.headers["Retry-After"] == "2"


async def test_unexpected_failure_is_a_logged_500(
    aiohttp_client: AiohttpClient, caplog: pytest.LogCaptureFixture
) -> None:
    client = await aiohttp_client(create_app(Config(hold=1.0), _FailingStore(KeyError("boom"))))
    answer = await client.get("/v1/matches/m/events")
    body = await expect(answer, 500, "server/internal")
    assert "boom" not in body["error"]["message"]
    assert any("boom" in record.getMessage() or record.exc_info for record in caplog.records)


async def test_polls_during_shutdown_are_answered_at_once_and_their_connection_closed(
    aiohttp_client: AiohttpClient,
) -> None:
    client = await aiohttp_client(create_app(Config(hold=20.0)))
    x, o, _ = await pair(client)
    url = f"/v1/matches/{x['match']}/events?after=1"
    held = asyncio.create_task(client.get(url, headers={"Authorization": f"Bearer {o['token']}"}))
    await asyncio.sleep(0.1)
    await client.app.shutdown()
    async with asyncio.timeout(2):
        answer = await held
    assert answer.status == 200 and await answer.json() == {"events": []}
    # A poll sent meanwhile is answered at once, never refused, and told to go elsewhere.
    started = time.monotonic()
    late = await client.get(url, headers={"Authorization": f"Bearer {o['token']}"})
    assert late.status == 200 and await late.json() == {"events": []}
    assert time.monotonic() - started < 2.0
    assert late.headers.get("Connection", "").lower() == "close"


async def test_a_request_cut_short_by_the_shutdown_is_answered_server_shutting_down() -> None:
    from relay.api.calls import task_done

    answers: list[tuple[object, BaseException | None]] = []
    task: asyncio.Future[tuple[int, bytes]] = asyncio.get_running_loop().create_future()
    task.cancel()
    task_done(lambda reply, error: answers.append((reply, error)), task)
    ((reply, error),) = answers
    assert reply is None and isinstance(error, RelayError)
    assert (error.code, error.status) == ("server/shutting_down", 503)


async def test_metrics_count_errors_by_code(client: Client) -> None:
    await client.get("/v1/matches/nope/events")
    text = await (await client.get("/metrics")).text()
    assert 'relay_errors_total{code="match/unknown"} 1.0' in text


def test_every_documented_code_is_tested_and_documented() -> None:
    tests = Path(__file__).parents[1]
    source = "".join(
        (tests / name).read_text()
        for name in (
            "http/test_http_errors.py", "http/test_front.py", "http/test_table_http.py",
            "api/test_moderation_api.py", "store/test_store_moderation.py",
            "api/test_passkeys_api.py", "api/test_push_api.py", "api/test_challenges_api.py",
        )
    )  # fmt: skip
    protocol = (Path(__file__).parents[3] / "docs" / "protocol.md").read_text()
    untested = [code for code in CODES if f'"{code}"' not in source]
    undocumented = [code for code in CODES if f"| `{code}` |" not in protocol]
    assert untested == [] and undocumented == []

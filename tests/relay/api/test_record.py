"""A match's record (GET /v1/matches/{id}/record): JSON Lines, a header and the log."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest

from tests.relay.wire import Seat, Wire
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import RelayProcess, quick_flags


@pytest.fixture(scope="module", params=["memory", "redis"])
def url(request: pytest.FixtureRequest) -> Iterator[str]:
    """Returns the URL of a relay process on the memory store, or on a Redis of its own."""
    if request.param == "memory":
        with RelayProcess(*quick_flags()) as relay:
            yield relay.url
        return
    with (
        RedisServer(redis_binary()) as redis,
        RelayProcess(*quick_flags(), "--store", redis.url) as relay,
    ):
        yield relay.url


@pytest.fixture
async def wire(url: str) -> AsyncIterator[Wire]:
    """Returns a protocol client of the relay process."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
        yield Wire(session, url)


async def record(wire: Wire, match: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Returns a record's header and events, checking its framing."""
    async with wire.session.get(f"{wire.url}/v1/matches/{match}/record") as answer:
        assert answer.status == 200
        assert answer.content_type == "application/jsonl"
        text = await answer.text()
    assert text.endswith("\n")
    lines = [json.loads(line) for line in text.splitlines()]
    return lines[0], lines[1:]


async def test_a_finished_match_records_its_game_result_and_whole_log(wire: Wire) -> None:
    x, o = await wire.pair("recorded", version="2")
    moves = ["a 1", '{"json": "looking"}', "ü"]
    for after, text in enumerate(moves, start=1):
        seat = (x, o)[(after - 1) % 2]
        status, body = await wire.post(
            seat, "moves", {"after": after, "move": text, "end": after == 3}
        )
        assert status == 200, body
    status, body = await wire.post(o, "confirm", {"after": 4, "agree": True})
    assert status == 200, body
    header, events = await record(wire, x.match)
    assert header == {
        "record": 1,
        "match": x.match,
        "game": "recorded",
        "version": "2",
        "room": None,
        "first": x.seat,
        "time_control": None,
        "status": "finished",
        "result": {"reason": "agreed", "seat": o.seat},
        "events": 5,
        "names": [None, None],
        "chat": 0,
    }
    assert events == await wire.events(x.match, 0)
    assert [event.get("move") for event in events[1:4]] == moves


async def test_a_game_ending_moves_words_are_the_recorded_results_detail(wire: Wire) -> None:
    x, o = await wire.pair("recorded-words")
    words = {"after": 1, "move": "m", "end": True, "claim": "win", "detail": " three mills "}
    status, body = await wire.post(x, "moves", {**words, "end": False})
    assert (status, body["error"]["code"]) == (400, "request/invalid")  # words end a game only
    status, body = await wire.post(x, "moves", {**words, "detail": "\u202egniw"})
    assert (status, body["error"]["code"]) == (400, "request/invalid")
    assert (await wire.events(x.match, 0))[-1]["type"] == "started"  # refused: nothing changed
    status, body = await wire.post(x, "moves", words)
    assert status == 200, body
    status, body = await wire.post(o, "confirm", {"after": 2, "agree": True})
    assert status == 200, body
    header, events = await record(wire, x.match)
    assert header["result"] == {
        "reason": "agreed", "seat": o.seat, "detail": "three mills", "claim": "win",
    }  # fmt: skip
    assert events[-1] == {
        "seq": 3, "type": "ended", "reason": "agreed", "seat": o.seat, "detail": "three mills",
    }  # fmt: skip


async def test_a_live_match_records_what_it_has_so_far(wire: Wire) -> None:
    x, _ = await wire.pair("recorded-live")
    await wire.post(x, "moves", {"after": 1, "move": "first"})
    header, events = await record(wire, x.match)
    assert (header["status"], header["result"], header["events"]) == ("playing", None, 2)
    assert [event["type"] for event in events] == ["started", "move"]


async def test_records_of_unknown_and_cancelled_matches_are_errors(wire: Wire) -> None:
    status, body = await wire.call("GET", "/v1/matches/no-such-match/record")
    assert (status, body["error"]["code"]) == (404, "match/unknown")
    waiting = await wire.seek("recorded-alone")
    status, _ = await wire.post(waiting, "cancel", None)
    assert status == 200
    status, body = await wire.call("GET", f"/v1/matches/{waiting.match}/record")
    assert (status, body["error"]["code"]) == (410, "match/expired")


async def test_a_clocked_match_records_its_control_and_info_tells_the_time_left(
    wire: Wire,
) -> None:
    control = {"kind": "fischer", "base": 600, "increment": 5}
    tickets = []
    for _ in range(2):
        status, body = await wire.call(
            "POST", "/v1/seek", {"game": "recorded-clock", "time_control": control}
        )
        assert status == 201, body
        tickets.append(body)
    match = tickets[0]["match"]
    # Seat 0 polls again, as a live client does: that starts the paired match.
    assert (await wire.events(match, 0, Seat(tickets[0])))[0]["type"] == "started"
    header, events = await record(wire, match)
    assert header["time_control"] == control
    assert events[0]["time_control"] == control and events[0]["left"] == [600, 600]
    status, info = await wire.call("GET", f"/v1/matches/{match}")
    assert status == 200
    assert info["time_control"] == control
    assert len(info["left"]) == 2 and info["left"][1 - info["turn"]] == 600
    assert 590 < info["left"][info["turn"]] <= 600

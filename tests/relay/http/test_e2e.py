"""End to end: a real `python -m relay` process, played over HTTP only."""

from __future__ import annotations

import asyncio
import secrets
import signal
import time
from collections.abc import AsyncIterator, Iterator

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.relay.wire import Wire
from tests.support.redis_cluster import session_cluster
from tests.support.relay_process import RelayProcess, quick_flags


@pytest.fixture(scope="module", params=["sources", "compiled", "cluster"])
def url(request: pytest.FixtureRequest, relay_url: str) -> Iterator[str]:
    """Returns the URL of a relay process run from the sources (the session's), of one run as
    the wheel installs it, its hot path compiled, or of one on a real 3-master Redis Cluster
    (given one node's URL, as a host would)."""
    if request.param == "sources":
        yield relay_url
        return
    if request.param == "cluster":
        cluster = session_cluster(request)
        with RelayProcess(*quick_flags(), "--store", cluster.url) as relay:
            yield relay.url
        return
    installed = request.getfixturevalue("installed")
    with RelayProcess(*quick_flags(), installed=installed) as relay:
        yield relay.url


@pytest.fixture
async def wire(url: str) -> AsyncIterator[Wire]:
    """Returns a protocol client of the relay process."""
    timeout = aiohttp.ClientTimeout(total=15)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        yield Wire(session, url)


async def test_complete_match_with_tricky_moves(wire: Wire) -> None:
    x, o = await wire.pair("e2e-tricky")
    texts = [
        "",
        "21",
        "\U0001f600\U00010348 astral",
        'quote " back \\ slash',
        "line\nbreak\r\n",
        '{"looks": ["like", "json"]}',
        "<script>alert(1)</script>",
        " ",
        "\t",
        "é" * 300,
    ]
    for index, text in enumerate(texts):
        seat = (x, o)[index % 2]
        status, body = await wire.post(seat, "moves", {"after": index + 1, "move": text})
        assert (status, body) == (200, {"seq": index + 2})
    for reader in (x, o, None):
        events = await wire.events(x.match, 1, reader)
        assert [event["move"] for event in events] == texts
        assert [event["seat"] for event in events] == [x.seat, o.seat] * 5
        assert [event["seq"] for event in events] == list(range(2, 12))


async def test_poll_is_held_until_the_partner_moves(wire: Wire) -> None:
    x, o = await wire.pair("e2e-hold")
    poll = asyncio.create_task(wire.events(o.match, 1, o))
    await asyncio.sleep(0.3)
    assert not poll.done()
    sent = time.monotonic()
    await wire.post(x, "moves", {"after": 1, "move": "11"})
    async with asyncio.timeout(5):
        events = await poll
    assert time.monotonic() - sent < 0.5
    assert events == [{"seq": 2, "type": "move", "seat": x.seat, "move": "11", "end": False}]


async def test_empty_poll_when_the_hold_expires(wire: Wire) -> None:
    x, _ = await wire.pair("e2e-empty")
    started = time.monotonic()
    assert await wire.events(x.match, 1, x, wait=1) == []
    assert 0.8 < time.monotonic() - started < 3


async def test_retried_move_is_applied_once(wire: Wire) -> None:
    x, o = await wire.pair("e2e-retry")
    body = {"after": 1, "move": "11", "end": False}
    answers = await asyncio.gather(*(wire.post(x, "moves", body) for _ in range(5)))
    assert answers == [(200, {"seq": 2})] * 5
    assert await wire.post(x, "moves", body) == (200, {"seq": 2})
    events = await wire.events(x.match, 0, o)
    assert [event["type"] for event in events] == ["started", "move"]


async def test_move_post_with_wait_answers_with_the_reply(wire: Wire) -> None:
    x, o = await wire.pair("e2e-fast")
    posted = asyncio.create_task(
        wire.call("POST", f"/v1/matches/{x.match}/moves?wait=5", {"after": 1, "move": "a"}, x.auth)
    )
    reply = asyncio.create_task(wire.events(o.match, 1, o))
    async with asyncio.timeout(5):
        assert (await reply)[0]["move"] == "a"
    await asyncio.sleep(0.2)
    assert not posted.done()
    answer = await wire.call(
        "POST", f"/v1/matches/{o.match}/moves?wait=1", {"after": 2, "move": "b"}, o.auth
    )
    async with asyncio.timeout(5):
        assert await posted == (
            200,
            {
                "seq": 2,
                "events": [{"seq": 3, "type": "move", "seat": o.seat, "move": "b", "end": False}],
            },
        )
    # The partner's held post answers empty when its wait runs out.
    assert answer == (200, {"seq": 3, "events": []})
    repeat = await wire.call(
        "POST", f"/v1/matches/{x.match}/moves?wait=1", {"after": 1, "move": "a"}, x.auth
    )
    assert repeat[1]["seq"] == 2 and repeat[1]["events"][0]["move"] == "b"


async def test_out_of_turn_and_stale_moves_are_409(wire: Wire) -> None:
    x, o = await wire.pair("e2e-turn")
    status, body = await wire.post(o, "moves", {"after": 1, "move": "00"})
    assert (status, body["error"]["code"]) == (409, "turn/not_yours")
    await wire.post(x, "moves", {"after": 1, "move": "11"})
    status, body = await wire.post(o, "moves", {"after": 1, "move": "00"})
    assert (status, body["error"]["code"]) == (409, "turn/stale")
    assert len(await wire.events(x.match, 0)) == 2


async def test_pass_hands_the_turn_back(wire: Wire) -> None:
    x, o = await wire.pair("e2e-pass")
    await wire.post(x, "moves", {"after": 1, "move": "c3"})
    assert await wire.post(o, "pass", {"after": 2}) == (200, {"seq": 3})
    assert await wire.post(x, "moves", {"after": 3, "move": "d4"}) == (200, {"seq": 4})
    events = await wire.events(x.match, 2, o)
    assert events[0] == {"seq": 3, "type": "pass", "seat": o.seat}
    assert events[1]["seat"] == x.seat


@pytest.mark.parametrize(("agree", "reason"), [(True, "agreed"), (False, "disputed")])
async def test_end_of_game_agreed_or_disputed(wire: Wire, agree: bool, reason: str) -> None:
    x, o = await wire.pair(f"e2e-end-{reason}")
    await wire.post(x, "moves", {"after": 1, "move": "win", "end": True})
    status, body = await wire.post(o, "moves", {"after": 2, "move": "more"})
    assert (status, body["error"]["code"]) == (409, "match/ending")
    assert await wire.post(o, "confirm", {"after": 2, "agree": agree}) == (200, {"seq": 3})
    events = await wire.events(x.match, 2, x)
    ended = {"seq": 3, "type": "ended", "reason": reason, "seat": o.seat}
    assert events == [ended if agree else {**ended, "at": 2}]
    status, body = await wire.post(x, "moves", {"after": 3, "move": "late"})
    assert (status, body["error"]["code"]) == (409, "match/finished")


async def test_resign_ends_the_match_for_both(wire: Wire) -> None:
    x, o = await wire.pair("e2e-resign")
    await wire.post(x, "moves", {"after": 1, "move": "11"})
    assert await wire.post(x, "resign", {}) == (200, {"seq": 3})
    for reader in (x, o):
        assert (await wire.events(x.match, 2, reader))[0] == {
            "seq": 3,
            "type": "ended",
            "reason": "resigned",
            "seat": x.seat,
        }
    info = (await wire.call("GET", f"/v1/matches/{x.match}"))[1]
    assert (info["status"], info["last"], info["turn"]) == ("finished", 3, None)


async def test_spectator_reads_but_never_writes(wire: Wire) -> None:
    x, o = await wire.pair("e2e-spectator")
    await wire.post(x, "moves", {"after": 1, "move": "11"})
    spectator = await wire.events(x.match, 0)
    assert spectator == await wire.events(x.match, 0, o)
    status, body = await wire.call(
        "POST", f"/v1/matches/{x.match}/moves", {"after": 2, "move": "00"}
    )
    assert (status, body["error"]["code"]) == (401, "auth/required")
    poll = asyncio.create_task(wire.events(x.match, 2))
    await wire.post(o, "moves", {"after": 2, "move": "00"})
    async with asyncio.timeout(5):
        assert (await poll)[0]["move"] == "00"


async def test_private_room_pairs_only_its_two_players(wire: Wire) -> None:
    public = await wire.seek("e2e-room")
    a = await wire.seek("e2e-room", room="friday-night")
    b = await wire.seek("e2e-room", room="friday-night")
    assert a.match == b.match != public.match
    status, body = await wire.call("POST", "/v1/seek", {"game": "e2e-room", "room": "friday-night"})
    assert (status, body["error"]["code"]) == (409, "room/full")
    c = await wire.seek("e2e-room")
    assert c.match == public.match


async def test_versions_pair_only_with_their_own(wire: Wire) -> None:
    v1 = await wire.seek("e2e-version", version="1")
    v2 = await wire.seek("e2e-version", version="2")
    assert v1.match != v2.match
    assert (await wire.seek("e2e-version", version="2")).match == v2.match
    assert (await wire.seek("e2e-version", version="1")).match == v1.match


async def test_retried_seek_with_its_own_token_takes_one_seat(wire: Wire) -> None:
    token = secrets.token_urlsafe(32)
    body = {"game": "e2e-reseek", "token": token}
    answers = [await wire.call("POST", "/v1/seek", body) for _ in range(3)]
    assert all(status == 201 for status, _ in answers)
    assert [ticket for _, ticket in answers] == [answers[0][1]] * 3
    assert answers[0][1]["token"] == token
    partner = await wire.seek("e2e-reseek")
    assert (partner.match, partner.seat) == (answers[0][1]["match"], 1)
    for bad in ("short", "x" * 129, "with space" * 4, 42):
        status, error = await wire.call("POST", "/v1/seek", {"game": "e2e-reseek", "token": bad})
        assert (status, error["error"]["code"]) == (400, "request/invalid")


async def test_empty_version_is_no_version(wire: Wire) -> None:
    a = await wire.seek("e2e-noversion", version="")
    b = await wire.seek("e2e-noversion")
    assert (a.match, b.seat) == (b.match, 1)


async def test_wait_takes_fractions_of_a_second(wire: Wire) -> None:
    x, _ = await wire.pair("e2e-fraction")
    started = time.monotonic()
    assert await wire.events(x.match, 1, x, wait="0.3") == []
    assert 0.2 < time.monotonic() - started < 1.5
    status, body = await wire.call("GET", f"/v1/matches/{x.match}/events?after=1&wait=.5")
    assert (status, body["error"]["code"]) == (400, "request/invalid")


async def test_cancelled_seek_is_never_paired(wire: Wire) -> None:
    a = await wire.seek("e2e-cancel")
    assert await wire.post(a, "cancel", None) == (200, {"cancelled": True})
    b = await wire.seek("e2e-cancel")
    assert b.match != a.match and b.seat == 0
    status, body = await wire.call("GET", f"/v1/matches/{a.match}/events?after=0")
    assert (status, body["error"]["code"]) == (410, "match/expired")


async def test_silent_seat_abandons_and_silent_seeker_is_dropped() -> None:
    with RelayProcess("--hold", "0.5", "--grace", "1.5") as relay:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            wire = Wire(session, relay.url)
            x, o = await wire.pair("e2e-abandon")
            ghost = await wire.seek("e2e-ghost")
            deadline = time.monotonic() + 6
            ended: list[dict[str, object]] = []
            while not ended and time.monotonic() < deadline:
                events = await wire.events(x.match, 1, x)
                ended = [event for event in events if event["type"] == "ended"]
            assert ended == [{"seq": 2, "type": "ended", "reason": "abandoned", "seat": o.seat}]
            status, body = await wire.call("GET", f"/v1/matches/{ghost.match}/events")
            assert (status, body["error"]["code"]) == (410, "match/expired")
            fresh = await wire.seek("e2e-ghost")
            assert fresh.match != ghost.match and fresh.seat == 0


async def test_relay_without_the_front_answers_the_same() -> None:
    with RelayProcess("--hold", "2", "--grace", "30", "--no-front") as relay:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            wire = Wire(session, relay.url)
            x, o = await wire.pair("e2e-no-front")
            posted = asyncio.create_task(
                wire.call(
                    "POST", f"/v1/matches/{x.match}/moves?wait=2", {"after": 1, "move": "a"}, x.auth
                )
            )
            assert (await wire.events(o.match, 1, o))[0]["move"] == "a"
            assert await wire.post(o, "moves", {"after": 2, "move": "b"}) == (200, {"seq": 3})
            async with asyncio.timeout(5):
                assert (await posted)[1]["events"][0]["move"] == "b"
            status, body = await wire.post(o, "moves", {"after": 3, "move": "c"})
            assert (status, body["error"]["code"]) == (409, "turn/not_yours")
        assert relay.stop() == 0


async def test_sigterm_answers_held_polls_before_exiting() -> None:
    relay = RelayProcess("--hold", "20", "--grace", "40").start()
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
            wire = Wire(session, relay.url)
            x, o = await wire.pair("e2e-shutdown")
            polls = [asyncio.create_task(wire.events(x.match, 1, seat)) for seat in (x, o)]
            await asyncio.sleep(0.3)
            started = time.monotonic()
            assert relay.proc is not None
            relay.proc.send_signal(signal.SIGTERM)
            async with asyncio.timeout(10):
                answers = await asyncio.gather(*polls)
            assert answers == [[], []]
            assert time.monotonic() - started < 5
        code = await asyncio.to_thread(relay.proc.wait, 10)
        assert code == 0, relay.log()
    finally:
        relay.stop()


MOVES = st.text(st.characters(exclude_categories=["Cs"]), max_size=200)
"""Any text: every code point but lone surrogates, which are not text (and not UTF-8)."""


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(texts=st.lists(MOVES, min_size=1, max_size=4))
def test_any_text_arrives_byte_exact(url: str, texts: list[str]) -> None:
    async def play() -> None:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            wire = Wire(session, url)
            x, o = await wire.pair("e2e-hypothesis")
            for index, text in enumerate(texts):
                seat = (x, o)[index % 2]
                status, body = await wire.post(seat, "moves", {"after": index + 1, "move": text})
                assert status == 200, body
            events = await wire.events(x.match, 1, o)
            assert [event["move"] for event in events] == texts

    asyncio.run(play())


async def test_metrics_tell_which_build_runs(url: str, request: pytest.FixtureRequest) -> None:
    expected = "compiled" if request.node.callspec.params["url"] == "compiled" else "pure Python"
    async with aiohttp.ClientSession() as session, session.get(url + "/metrics") as answer:
        text = await answer.text()
    assert f'relay_build_info{{hot_path="{expected}"}} 1.0' in text


async def test_protocol_requests_are_answered_by_the_front(url: str) -> None:
    # aiohttp names itself in a Server header; the lean front writes none.
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
        wire = Wire(session, url)
        x, _ = await wire.pair("front-serves")
        answers = [
            await session.get(f"{url}/v1/matches/{x.match}/events?after=0", headers=x.auth),
            await session.post(
                f"{url}/v1/matches/{x.match}/moves?wait=0",
                json={"after": 1, "move": "m"},
                headers=x.auth,  # pair() returns the seat that moves first first
            ),
            await session.get(f"{url}/v1/matches/{x.match}"),
            await session.get(f"{url}/healthz"),
            await session.post(f"{url}/v1/seek", json={"game": "front-serves-alone"}),
        ]
        assert [answer.status for answer in answers] == [200, 200, 200, 200, 201]
        assert [answer.headers.get("Server") for answer in answers] == [None] * 5
        async with session.get(url + "/") as page:  # a page: aiohttp's to serve
            assert page.status == 200 and "aiohttp" in page.headers["Server"]

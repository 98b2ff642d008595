"""Ratings end to end (docs/ratings.md): real relay processes on the memory store, on Redis
and on a Redis Cluster rate trusted results once, answer the leaderboard and a key's ratings,
and refuse bad fields."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest

from tests.relay.wire import Seat, Wire
from tests.support.redis_cluster import session_cluster
from tests.support.redis_server import session_redis
from tests.support.relay_process import RelayProcess, quick_flags

STORES = ["memory", "redis", "cluster"]

LAX_RATINGS = (
    *("--rate-unrefereed", "--pair-daily", "1000", "--board-opponents", "1"),
    *("--board-days", "0"),
)
"""Rating rules that let one pair of keys play many rated matches and reach the leaderboard
at once: the tests of the ratings' mechanics (the fair-play rules have tests of their own)."""


def store_args(request: pytest.FixtureRequest, kind: str) -> tuple[str, ...]:
    """Returns the --store option of a store kind (none for memory)."""
    if kind == "redis":
        return ("--store", session_redis(request).url)
    if kind == "cluster":
        return ("--store", session_cluster(request).url)
    return ()


@pytest.fixture(scope="module", params=STORES)
def url(request: pytest.FixtureRequest) -> Iterator[str]:
    """Returns the URL of a relay with the default rating rules, on each store."""
    with RelayProcess(*quick_flags(), *LAX_RATINGS, *store_args(request, request.param)) as process:
        yield process.url


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    """Returns an HTTP client session."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as made:
        yield made


@pytest.fixture
def wire(session: aiohttp.ClientSession, url: str) -> Wire:
    """Returns a protocol client of the relay."""
    return Wire(session, url)


def key() -> str:
    """Returns a fresh player key."""
    return secrets.token_urlsafe(32)


def game() -> str:
    """Returns a game key of this test alone (its leaderboard starts empty)."""
    return "rated" + secrets.token_hex(4)


async def pair(
    wire: Wire, name: str, keys: tuple[str | None, str | None], **fields: Any
) -> tuple[Seat, Seat, str | None, str | None]:
    """Seats two seekers (each with its key, if any) and returns the seat to move first, the
    other, and their keys in that order."""
    seated = []
    for player in keys:
        body: dict[str, Any] = {"game": name, **fields}
        if player is not None:
            body["player"] = player
        status, answer = await wire.call("POST", "/v1/seek", body)
        assert status == 201, answer
        seated.append(Seat(answer))
    a, b = seated
    assert a.match == b.match
    started = (await wire.events(a.match, 0, a))[0]
    if started["first"] == a.seat:
        return a, b, keys[0], keys[1]
    return b, a, keys[1], keys[0]


async def ratings(wire: Wire, player: str, name: str | None = None) -> list[dict[str, Any]]:
    """Returns the key's ratings (of one game, if named)."""
    query = "" if name is None else f"?game={name}"
    status, body = await wire.call(
        "GET", f"/v1/player/ratings{query}", headers={"Authorization": f"Bearer {player}"}
    )
    assert status == 200, body
    found: list[dict[str, Any]] = body["ratings"]
    return found


async def info(wire: Wire, match: str) -> dict[str, Any]:
    """Returns the match's info."""
    status, body = await wire.call("GET", f"/v1/matches/{match}")
    assert status == 200, body
    found: dict[str, Any] = body
    return found


async def end_agreed(wire: Wire, x: Seat, o: Seat, claim: str | None) -> None:
    """Has x make a game-ending move (with its claim, if any) and o agree."""
    body: dict[str, Any] = {"after": 1, "move": "m", "end": True}
    if claim is not None:
        body["claim"] = claim
    status, answer = await wire.post(x, "moves", body)
    assert status == 200, answer
    status, answer = await wire.post(o, "confirm", {"after": 2, "agree": True})
    assert status == 200, answer


async def test_a_resignation_rates_both_keys_once(wire: Wire) -> None:
    name = game()
    x, o, kx, ko = await pair(wire, name, (key(), key()))
    assert kx is not None and ko is not None
    status, _ = await wire.post(o, "resign", {})
    assert status == 200
    status, _ = await wire.post(o, "resign", {})  # sent again: the same answer, rated once
    assert status == 200
    found = await info(wire, x.match)
    assert found["rated"] is True
    before_after = found["ratings"]
    assert before_after[x.seat] == {"before": 1500.0, "after": pytest.approx(1742, abs=1)}
    assert before_after[o.seat] == {"before": 1500.0, "after": pytest.approx(1258, abs=1)}
    (winner,) = await ratings(wire, kx)
    assert winner["game"] == name and winner["games"] == 1 and winner["provisional"] is True
    assert winner["shown"] == f"{int(winner['rating'])}?"
    assert [entry["match"] for entry in winner["history"]] == [x.match]
    assert winner["history"][0]["score"] == 1 and winner["history"][0]["opponent"] == 1500.0
    (loser,) = await ratings(wire, ko, name)
    assert loser["games"] == 1 and loser["history"][0]["score"] == 0
    assert await ratings(wire, ko, "another") == []
    status, body = await wire.call(
        "GET", "/v1/player/matches", headers={"Authorization": f"Bearer {kx}"}
    )
    assert status == 200
    (listed,) = body["matches"]
    assert listed["rating"] == before_after[x.seat]


async def test_an_agreed_ending_is_rated_by_the_movers_claim(wire: Wire) -> None:
    name = game()
    x, o, kx, ko = await pair(wire, name, (key(), key()))
    assert kx is not None and ko is not None
    await end_agreed(wire, x, o, "loss")
    moved = (await wire.events(x.match, 1, x))[0]
    assert moved["claim"] == "loss"
    found = await info(wire, x.match)
    assert found["rated"] is True
    assert found["ratings"][o.seat]["after"] > 1500 > found["ratings"][x.seat]["after"]
    x, o, kx, ko = await pair(wire, name, (key(), key()))
    await end_agreed(wire, x, o, "draw")
    found = await info(wire, x.match)
    assert found["ratings"][0]["after"] == pytest.approx(1500, abs=0.1)


async def test_what_is_not_trusted_is_never_rated(wire: Wire) -> None:
    name = game()
    x, o, kx, _ = await pair(wire, name, (key(), key()))
    assert kx is not None
    await end_agreed(wire, x, o, None)  # agreed, but nobody said what it ended in
    assert (await info(wire, x.match))["rated"] is False
    x, o, kx, _ = await pair(wire, name, (key(), key()))
    assert kx is not None
    status, _ = await wire.post(x, "moves", {"after": 1, "move": "m", "end": True, "claim": "win"})
    assert status == 200
    status, _ = await wire.post(o, "confirm", {"after": 2, "agree": False})  # disputed
    assert status == 200
    assert (await info(wire, x.match))["rated"] is False
    assert await ratings(wire, kx) == []
    x, o, _, _ = await pair(wire, name, (key(), None))  # one seat without a key
    status, _ = await wire.post(o, "resign", {})
    assert status == 200
    assert (await info(wire, x.match))["rated"] is False


async def test_a_bad_claim_is_refused(wire: Wire) -> None:
    x, _, _, _ = await pair(wire, game(), (key(), key()))
    for body in (
        {"after": 1, "move": "m", "end": True, "claim": "won"},
        {"after": 1, "move": "m", "claim": "win"},
        {"after": 1, "move": "m", "end": True, "claim": 1},
    ):
        status, answer = await wire.post(x, "moves", body)
        assert status == 400, body
        assert answer["error"]["code"] == "request/invalid"
        assert "claim" in answer["error"]["message"]


async def test_the_leaderboard_lists_established_ratings_best_first(wire: Wire) -> None:
    name = game()
    strong, weak, new = key(), key(), key()
    for index in range(24):  # the strong key wins a quarter, draws the rest: established
        x, o, kx, _ = await pair(wire, name, (strong, weak))
        claim = "draw" if index % 4 else ("win" if kx == strong else "loss")
        await end_agreed(wire, x, o, claim)
    x, o, _, _ = await pair(wire, name, (new, weak))
    await end_agreed(wire, x, o, "win")  # the new key stays provisional: not listed
    status, body = await wire.call("GET", f"/v1/games/{name}/leaderboard")
    assert status == 200, body
    assert body["game"] == name
    rows = body["players"]
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    assert len(rows) == 2, (rows, await ratings(wire, strong), await ratings(wire, weak))
    assert rows[0]["rating"] > rows[1]["rating"]
    assert [row["games"] for row in rows] == [24, 25]
    assert all(not row["shown"].endswith("?") and row["deviation"] < 110 for row in rows)
    (mine,) = await ratings(wire, strong)
    assert rows[0]["rating"] == mine["rating"] and rows[0]["shown"] == mine["shown"]
    assert rows[0]["id"] != rows[1]["id"] and len(rows[0]["id"]) == 12
    assert rows[0]["name"] is None
    status, body = await wire.call("GET", f"/v1/games/{name}/leaderboard?limit=1")
    assert status == 200 and body["players"] == rows[:1]
    for bad in ("0", "101", "x"):
        status, body = await wire.call("GET", f"/v1/games/{name}/leaderboard?limit={bad}")
        assert status == 400, bad
        assert body["error"]["code"] == "request/invalid"


async def test_an_unknown_key_has_no_ratings(wire: Wire) -> None:
    assert await ratings(wire, key()) == []
    status, body = await wire.call("GET", f"/v1/games/{game()}/leaderboard")
    assert status == 200 and body["players"] == []


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_timeouts_and_abandonment_are_rated_as_the_host_sets(
    request: pytest.FixtureRequest, session: aiohttp.ClientSession, kind: str
) -> None:
    timed = {"time_control": {"kind": "fischer", "base": 1, "increment": 0}}
    flags_rated = ((("--no-rate-timeouts", "--no-rate-abandoned"), False), ((), True))
    for flags, rated in flags_rated:
        args = ("--hold", "1", "--grace", "3", "--seeks-per-minute", "100000", "--rate-unrefereed")
        # Every process on one store rates alike: these relays' Redis database is their own.
        store = () if kind == "memory" else ("--store", session_redis(request).url[:-1] + "7")
        with RelayProcess(*args, *flags, *store) as process:
            wire = Wire(session, process.url)
            x, _, _, _ = await pair(wire, game(), (key(), key()), **timed)
            y, _, _, _ = await pair(wire, game(), (key(), key()))
            z, _, _, _ = await pair(wire, game(), (key(), key()))
            status, _ = await wire.post(
                z, "moves", {"after": 1, "move": "m", "end": True, "claim": "win"}
            )  # never confirmed: unconfirmed, never rated
            assert status == 200
            ended: dict[str, Any] = {}
            for _ in range(100):  # the reaper ends both: x's time runs out, y and p go quiet
                await asyncio.sleep(0.1)
                for seat in (x, y, z):
                    found = await info(wire, seat.match)
                    if found["status"] == "finished" and found["rated"] != "pending":
                        ended[seat.match] = found
                if len(ended) == 3:
                    break
            assert len(ended) == 3, ended
            assert (await wire.events(z.match, 0))[-1]["reason"] == "unconfirmed"
            assert ended.pop(z.match)["rated"] is False
            log = await wire.events(x.match, 0)
            assert log[-1]["reason"] == "timeout"
            assert (await wire.events(y.match, 0))[-1]["reason"] == "abandoned"
            assert [found["rated"] for found in ended.values()] == [rated, rated]


async def test_no_ratings_rates_nothing_and_answers_empty_lists(
    session: aiohttp.ClientSession,
) -> None:
    with RelayProcess(*quick_flags(), "--no-ratings") as process:
        wire = Wire(session, process.url)
        name = game()
        x, o, kx, _ = await pair(wire, name, (key(), key()))
        assert kx is not None
        status, _ = await wire.post(o, "resign", {})
        assert status == 200
        assert (await info(wire, x.match))["rated"] is False
        assert await ratings(wire, kx) == []
        status, body = await wire.call("GET", f"/v1/games/{name}/leaderboard")
        assert status == 200 and body == {"game": name, "players": []}


async def test_two_relays_ending_the_same_match_rate_it_once(
    request: pytest.FixtureRequest, session: aiohttp.ClientSession
) -> None:
    store = store_args(request, "redis")
    flags = (*quick_flags(), "--rate-unrefereed", *store)
    with RelayProcess(*flags) as one, RelayProcess(*flags) as two:
        name = game()
        for _ in range(3):
            x, o, kx, ko = await pair(Wire(session, one.url), name, (key(), key()))
            assert kx is not None and ko is not None
            answers = await asyncio.gather(
                Wire(session, one.url).post(o, "resign", {}),
                Wire(session, two.url).post(o, "resign", {}),
            )
            assert [status for status, _ in answers] == [200, 200]
            assert answers[0][1] == answers[1][1]
            for player in (kx, ko):
                (found,) = await ratings(Wire(session, two.url), player)
                assert found["games"] == 1
                assert [entry["match"] for entry in found["history"]] == [x.match]
            assert (await info(Wire(session, two.url), x.match))["rated"] is True


async def seek(wire: Wire, body: dict[str, Any]) -> tuple[int, Any]:
    """Posts a seek; returns its status and answer."""
    return await wire.call("POST", "/v1/seek", body)


async def test_rating_ranges_pair_only_within_both_ranges(wire: Wire) -> None:
    name = game()
    picky = await seek(wire, {"game": name, "player": key(), "rating_range": {"min": 1600}})
    assert picky[0] == 201
    new = await seek(wire, {"game": name, "player": key()})  # 1500: not within picky's range
    assert new[0] == 201 and new[1]["match"] != picky[1]["match"] and new[1]["seat"] == 0
    keyless = await seek(wire, {"game": name, "rating_range": None})
    assert keyless[0] == 201 and keyless[1]["match"] == new[1]["match"]  # any rating: joined
    near = await seek(wire, {"game": name, "player": key(), "rating_range": {"within": 50}})
    assert near[0] == 201 and near[1]["match"] != picky[1]["match"] and near[1]["seat"] == 0
    other = await seek(wire, {"game": name, "player": key(), "rating_range": {"max": 1550}})
    assert other[0] == 201 and other[1]["match"] == near[1]["match"]  # 1500 within both
    status, body = await wire.call("GET", f"/v1/matches/{picky[1]['match']}")
    assert status == 200 and body["status"] == "waiting"


async def test_bad_rating_ranges_are_refused(wire: Wire) -> None:
    player = key()
    for body, words in (
        ({"rating_range": {"min": 1700, "max": 1600}}, "min at most max"),
        ({"rating_range": {"within": 0}}, "within"),
        ({"rating_range": {"within": 100, "min": 1}}, "within"),
        ({"rating_range": {"low": 1}}, "rating_range"),
        ({"rating_range": 5}, "rating_range"),
        ({"rating_range": {"min": 1400}, "room": "r"}, "room"),
    ):
        status, answer = await seek(wire, {"game": "ranged", "player": player, **body})
        assert status == 400, body
        assert answer["error"]["code"] == "request/invalid"
        assert words in answer["error"]["message"]
    status, answer = await seek(wire, {"game": "ranged", "rating_range": {"min": 1400}})
    assert status == 400 and "needs 'player'" in answer["error"]["message"]


async def test_no_ratings_refuses_rating_ranges(session: aiohttp.ClientSession) -> None:
    with RelayProcess(*quick_flags(), "--no-ratings") as process:
        status, body = await seek(
            Wire(session, process.url),
            {"game": "ranged", "player": key(), "rating_range": {"within": 100}},
        )
        assert status == 400 and "--no-ratings" in body["error"]["message"]


async def test_open_lobby_entries_show_the_seekers_rating(wire: Wire) -> None:
    name = game()
    rated = key()
    x, o, kx, _ = await pair(wire, name, (rated, key()))
    loser = o if kx == rated else x
    status, _ = await wire.post(loser, "resign", {})
    assert status == 200
    (mine,) = await ratings(wire, rated)
    for player in (rated, None, key()):
        body: dict[str, Any] = {"game": name, "public": True}
        if player is not None:
            body["player"] = player
        status, answer = await seek(wire, body)
        assert status == 201
        status, lobby = await wire.call("GET", f"/v1/lobby?game={name}")
        assert status == 200
        (entry,) = lobby["open"]
        assert entry["rating"] == {rated: mine["shown"], None: None}.get(player, "1500?")
        status, _ = await wire.call(
            "POST", f"/v1/matches/{answer['match']}/cancel", None,
            {"Authorization": f"Bearer {answer['token']}"},
        )  # fmt: skip
        assert status == 200


async def test_by_default_only_refereed_games_are_rated_and_a_loser_cannot_dispute_a_loss_away(
    session: aiohttp.ClientSession,
) -> None:
    with RelayProcess(
        *quick_flags(), "--referee", "xand0", module="tests.support.refereed_relay"
    ) as process:
        wire = Wire(session, process.url)
        x, o, kx, ko = await pair(wire, "xand0", (key(), key()))
        assert kx is not None and ko is not None
        moves = ["00", "10", "11", "20", "22"]  # x wins: three in a row
        for index, text in enumerate(moves):
            last = index == len(moves) - 1
            body = {
                "after": index + 1,
                "move": text,
                "end": last,
                **({"claim": "loss"} if last else {}),
            }
            status, answer = await wire.post((x, o)[index % 2], "moves", body)
            assert status == 200, answer
        ended = (await wire.events(x.match, 0))[-1]
        assert ended["type"] == "ended" and ended["winner"] == x.seat
        found = await info(wire, x.match)
        assert found["rated"] is True  # by the verdict, not by the mover's claim
        assert found["ratings"][x.seat]["after"] > 1500 > found["ratings"][o.seat]["after"]
        # The loser's dispute comes too late: the verdict ended the match with the move.
        status, answer = await wire.post(o, "confirm", {"after": 6, "agree": False})
        assert (status, answer["error"]["code"]) == (409, "match/finished")
        (lost,) = await ratings(wire, ko)
        assert lost["rating"] < 1500
        # A game this relay does not referee is played casual: neither a resignation nor a
        # dispute moves a rating, so disputing a loss gains nothing over resigning it.
        for ending in ("resign", "confirm"):
            x, o, kx, ko = await pair(wire, "connect4", (key(), key()))
            assert kx is not None and ko is not None
            assert await wire.post(x, "moves", {"after": 1, "move": "3"}) == (200, {"seq": 2})
            if ending == "resign":
                assert (await wire.post(o, "resign", {}))[0] == 200
            else:
                assert (await wire.post(o, "confirm", {"after": 2, "agree": False}))[0] == 200
            assert (await info(wire, x.match))["rated"] is False
            assert await ratings(wire, ko) == [] and await ratings(wire, kx) == []

"""Challenges over HTTP, as players and as strangers (docs/protocol.md#challenges): a key
challenges another by its public id, the challenged key sees it on a held poll and accepts,
and both play the match with their keys; every refusal; racing answers make one match or none;
a flood of keys meets its caps; follows and recent opponents; the push hook. Every answer is
checked against the OpenAPI document."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from pytest_aiohttp import AiohttpClient

from relay import Config, MemoryStore, Store, StoreSettings, create_app
from relay.core import challenges as rules
from relay.core.challenges import ChallengeNotice
from relay.core.games import Game
from relay.core.model import hash_token
from relay.core.moderation import Ban
from relay.core.rated import RatingRules
from relay.core.standings import public_id
from relay.http.proxy import behind_proxy
from relay.http.state import API
from tests.relay.api.keyed_client import KeyedClient

pytestmark = pytest.mark.timeout(60)

RATED = StoreSettings(ratings=RatingRules(unrefereed=True))
FISCHER = {"kind": "fischer", "base": 300, "increment": 3}


def key() -> str:
    return secrets.token_urlsafe(32)


class Player(KeyedClient):
    """One player's client: its key, its address, its calls checked against the document."""

    def __init__(self, client: Any, player: str | None = None, address: str = "") -> None:
        self.key = player or key()
        self.id = public_id(hash_token(self.key))
        super().__init__(client, self.key, address)

    async def known(self) -> Player:
        """Seeks once with its key (and cancels), so the relay knows it by its public id."""
        status, ticket = await self.call("POST", "/v1/seek", {"game": "chess", "player": self.key})
        assert status == 201, ticket
        path = f"/v1/matches/{ticket['match']}/cancel"
        assert (await self.call("POST", path, check="/v1/matches/{match}/cancel"))[0] == 200
        return self

    async def challenge(self, to: Player, **terms: object) -> tuple[int, Any]:
        body = {"to": to.id, "game": "chess", **terms}
        return await self.call("POST", "/v1/player/challenges", body)

    async def answer(self, challenge: str, action: str, **more: object) -> tuple[int, Any]:
        body = {"id": challenge, "action": action, **more}
        return await self.call("POST", "/v1/player/challenges/answer", body)


async def relay(aiohttp_client: AiohttpClient, backend: Store | None = None, **options: Any) -> Any:
    config = Config(
        hold=2.0, requests_per_second=100000.0, trusted_proxies=("127.0.0.1",), **options
    )
    return await aiohttp_client(behind_proxy(create_app(config, backend), config))


def code(answer: tuple[int, Any]) -> tuple[int, str]:
    return answer[0], answer[1]["error"]["code"]


async def test_a_challenge_shows_live_and_its_accept_seats_both_keys(
    aiohttp_client: AiohttpClient, store: Store
) -> None:
    client = await relay(aiohttp_client, store)
    ann, bob = await Player(client).known(), await Player(client).known()
    told: list[ChallengeNotice] = []
    client.server.app[API].challenges.told = told.append
    status, empty = await bob.call("GET", "/v1/player/challenges")
    assert status == 200 and empty["incoming"] == [] and empty["outgoing"] == []
    held = asyncio.ensure_future(
        bob.call("GET", f"/v1/player/challenges?after={empty['version']}&wait=5")
    )
    await asyncio.sleep(0.1)
    assert not held.done()
    status, made = await ann.challenge(bob, colour="first", time_control=FISCHER, name="Ann")
    assert (
        status == 201 and made["state"] == "open" and made["from"] == {"id": ann.id, "name": "Ann"}
    )
    assert made["until"] == pytest.approx(made["at"] + rules.LAPSE_LIVE)
    status, seen = await asyncio.wait_for(held, 3)
    assert status == 200 and [c["id"] for c in seen["incoming"]] == [made["id"]]
    assert told == [ChallengeNotice(hash_token(bob.key), made["id"], "Ann", "chess", made["until"])]
    status, accepted = await bob.answer(made["id"], "accept", name="Bob")
    assert status == 200 and accepted["state"] == "accepted" and accepted["to"]["name"] == "Bob"
    match = accepted["match"]
    # Accepting twice answers the same match.
    assert (await bob.answer(made["id"], "accept"))[1]["match"] == match
    status, outgoing = await ann.call("GET", "/v1/player/challenges")
    assert (
        outgoing["outgoing"][0]["state"] == "accepted" and outgoing["outgoing"][0]["match"] == match
    )
    for player, seat in ((ann, 0), (bob, 1)):
        status, listed = await player.call("GET", "/v1/player/matches")
        entry = next(m for m in listed["matches"] if m["match"] == match)
        assert entry["seat"] == seat and entry["first"] == 0 and entry["names"] == ["Ann", "Bob"]
    m = "/v1/matches/{match}/moves"
    status, body = await ann.call(
        "POST", f"/v1/matches/{match}/moves", {"after": 1, "move": "e4"}, check=m
    )
    assert status == 200 and body["seq"] == 2
    status, body = await bob.call(
        "POST", f"/v1/matches/{match}/moves", {"after": 2, "move": "e5"}, check=m
    )
    assert status == 200 and body["seq"] == 3
    status, info = await ann.call("GET", f"/v1/matches/{match}", check="/v1/matches/{match}")
    assert info["players"] == [ann.id, bob.id] and info["time_control"] == FISCHER


async def test_every_refusal_of_a_challenge_is_clear(aiohttp_client: AiohttpClient) -> None:
    store = MemoryStore()
    game = Game("chess", "Chess", "", Path("."), "chess.html", "", False, None, "test")
    client = await relay(aiohttp_client, store, games=(game,))
    ann, bob = await Player(client).known(), await Player(client).known()
    path = "/v1/player/challenges"
    assert code(await ann.call("POST", path, {"to": bob.id, "game": "chess"}, bearer="short")) == (
        403, "auth/bad_token",
    )  # fmt: skip
    answer = await client.post(path, data=b"{}", headers={"Content-Type": "application/json"})
    assert answer.status == 401
    for body in (
        {"to": "nope", "game": "chess"},
        {"to": bob.id},
        {"to": bob.id, "game": "chess", "colour": "white"},
        {"to": bob.id, "game": "chess", "rated": "yes"},
        {"to": bob.id, "game": "chess", "time_control": {"kind": "fischer"}},
        {"to": bob.id, "game": "chess", "rated": True},  # this relay rates no game
    ):
        assert code(await ann.call("POST", path, body)) == (400, "request/invalid"), body
    assert code(await ann.challenge(bob, game="go")) == (404, "game/unknown")
    assert code(await ann.challenge(ann)) == (409, "challenge/self")
    stranger = Player(client)
    assert code(await ann.challenge(stranger)) == (404, "player/unknown")
    status, made = await ann.challenge(bob)
    assert status == 201
    assert code(await ann.challenge(bob)) == (409, "challenge/open")
    answer_path = "/v1/player/challenges/answer"
    assert code(await bob.call("POST", answer_path, {"id": made["id"], "action": "take"})) == (
        400, "request/invalid",
    )  # fmt: skip
    assert code(await bob.call("POST", answer_path, {"id": "x", "action": "accept"})) == (
        400, "request/invalid",
    )  # fmt: skip
    assert code(await ann.answer(made["id"], "accept")) == (404, "challenge/unknown")
    assert code(await bob.answer(made["id"], "withdraw")) == (404, "challenge/unknown")
    assert code(await bob.answer(bob.id + "A" * 12, "accept")) == (404, "challenge/unknown")
    assert (await ann.answer(made["id"], "withdraw"))[1]["state"] == "withdrawn"
    assert code(await bob.answer(made["id"], "accept")) == (409, "challenge/settled")
    # A banned key may not challenge, nor be challenged.
    now = time.time()
    await store.moderation.ban(Ban(f"id:{ann.id}", now + 60, "spam", now))
    status, body = await ann.challenge(bob)
    assert (status, body["error"]["code"]) == (403, "player/banned") and "spam" in body["error"][
        "message"
    ]
    status, body = await bob.challenge(ann)
    assert (status, body["error"]["code"]) == (403, "player/banned")
    assert "The player you challenge" in body["error"]["message"]
    await store.moderation.unban(f"id:{ann.id}")
    # A block refuses a challenge either way, and an accept made after it.
    carl = await Player(client).known()
    status, made = await carl.challenge(ann)
    assert status == 201
    paired = await seek_pair(ann, carl)
    status, _ = await ann.call("POST", "/v1/player/blocks", {"kind": "block", "match": paired})
    assert status == 200
    assert code(await carl.challenge(ann)) == (409, "challenge/blocked")
    assert code(await ann.challenge(carl)) == (409, "challenge/blocked")
    assert code(await ann.answer(made["id"], "accept")) == (409, "challenge/blocked")


async def seek_pair(one: Player, two: Player) -> str:
    """Pairs two keys in a private room and returns the match."""
    room = secrets.token_hex(4)
    for player in (one, two):
        body = {"game": "chess", "room": room, "player": player.key}
        status, ticket = await player.call("POST", "/v1/seek", body)
        assert status == 201, ticket
    return str(ticket["match"])


async def test_racing_answers_make_one_match_or_none(
    aiohttp_client: AiohttpClient, store: Store
) -> None:
    client = await relay(aiohttp_client, store)
    for _ in range(3):
        ann, bob = await Player(client).known(), await Player(client).known()
        made = (await ann.challenge(bob))[1]
        found = await asyncio.gather(
            bob.answer(made["id"], "accept"),
            ann.answer(made["id"], "withdraw"),
            bob.answer(made["id"], "accept"),
        )
        settled = [body for status, body in found if status == 200]
        assert len({body["state"] for body in settled}) == 1
        assert len({body["match"] for body in settled}) == 1
        assert all(code((s, b)) == (409, "challenge/settled") for s, b in found if s != 200)
        playing = [m for m in (await bob.call("GET", "/v1/player/matches"))[1]["matches"]
                   if m["status"] == "playing"]  # fmt: skip
        assert len(playing) == (1 if settled[0]["state"] == "accepted" else 0)


async def test_a_flood_of_free_keys_meets_the_caps(aiohttp_client: AiohttpClient) -> None:
    client = await relay(aiohttp_client, MemoryStore())
    victim = await Player(client).known()
    # Keys the victim does not follow fill their places, and no more.
    for n in range(rules.STRANGERS_MOST + 2):
        stranger = await Player(client, address="203.0.113.7").known()
        answer = await stranger.challenge(victim)
        if n < rules.STRANGERS_MOST:
            assert answer[0] == 201
        else:
            assert code(answer) == (409, "challenge/full")
    # A key the victim follows still has room.
    friend = await Player(client).known()
    status, _ = await victim.call("POST", "/v1/player/follows", {"id": friend.id, "name": "Fi"})
    assert status == 200
    assert (await friend.challenge(victim))[0] == 201
    status, listed = await victim.call("GET", "/v1/player/challenges")
    assert len(listed["incoming"]) == rules.STRANGERS_MOST + 1
    # One key: at most OUT_MOST open.
    flooder = await Player(client, address="203.0.113.8").known()
    targets = [await Player(client).known() for _ in range(rules.OUT_MOST + 1)]
    for target in targets[:-1]:
        assert (await flooder.challenge(target))[0] == 201
    assert code(await flooder.challenge(targets[-1])) == (409, "challenge/too_many")
    # One address: PER_HOUR challenges an hour on this process, whatever its keys.
    for _ in range(rules.PER_HOUR - (rules.OUT_MOST + 1)):
        one = Player(client, address="203.0.113.8")
        await one.challenge(friend)
    answer = await client.post(
        "/v1/player/challenges",
        data=orjson.dumps({"to": friend.id, "game": "chess"}),
        headers={"X-Forwarded-For": "203.0.113.8", "Authorization": f"Bearer {key()}",
                 "Content-Type": "application/json"},
    )  # fmt: skip
    assert answer.status == 429 and int(answer.headers["Retry-After"]) > 60
    assert (await answer.json())["error"]["code"] == "challenge/too_fast"


async def test_rated_terms_need_a_relay_that_rates_the_game(
    aiohttp_client: AiohttpClient, store: Store
) -> None:
    client = await relay(aiohttp_client, store, store=RATED)
    ann, bob = await Player(client).known(), await Player(client).known()
    for rated in (True, False):
        status, made = await ann.challenge(bob, rated=rated)
        assert status == 201 and made["rated"] is rated
        match = (await bob.answer(made["id"], "accept"))[1]["match"]
        path = f"/v1/matches/{match}/resign"
        assert (await ann.call("POST", path, {}, check="/v1/matches/{match}/resign"))[0] == 200
        status, info = await ann.call("GET", f"/v1/matches/{match}", check="/v1/matches/{match}")
        assert info["rated"] in ((True, "pending") if rated else (False,))


async def test_follows_and_recent_opponents(aiohttp_client: AiohttpClient, store: Store) -> None:
    client = await relay(aiohttp_client, store)
    ann, bob = await Player(client).known(), await Player(client).known()
    path = "/v1/player/follows"
    assert (await ann.call("GET", path))[1] == {"follows": []}
    status, body = await ann.call("POST", path, {"id": bob.id, "name": "Bob"})
    assert status == 200 and [(f["id"], f["name"]) for f in body["follows"]] == [(bob.id, "Bob")]
    assert code(await ann.call("POST", path, {"id": ann.id})) == (409, "challenge/self")
    assert code(await ann.call("POST", path, {"id": "bad"})) == (400, "request/invalid")
    for _ in range(rules.FOLLOWS_MOST - 1):
        assert (await ann.call("POST", path, {"id": Player(client).id}))[0] == 200
    assert code(await ann.call("POST", path, {"id": Player(client).id})) == (409, "follow/full")
    status, body = await ann.call("POST", path, {"id": bob.id, "follow": False})
    assert bob.id not in [f["id"] for f in body["follows"]]
    # Recent opponents come from the key's own matches, with the name each played under.
    status, made = await ann.challenge(bob, name="Ann")
    await bob.answer(made["id"], "accept", name="Bobby")
    status, body = await ann.call("GET", "/v1/player/opponents")
    assert status == 200
    assert [(o["id"], o["name"], o["match"]) for o in body["opponents"]] == [
        (
            bob.id,
            "Bobby",
            (await ann.call("GET", "/v1/player/challenges"))[1]["outgoing"][0]["match"],
        )
    ]
    assert (await Player(client).call("GET", "/v1/player/opponents"))[1] == {"opponents": []}


async def test_a_keys_matches_name_each_seats_public_id(aiohttp_client: AiohttpClient) -> None:
    client = await relay(aiohttp_client, MemoryStore())
    ann, bob = await Player(client).known(), await Player(client).known()
    await seek_pair(ann, bob)
    status, listed = await ann.call("GET", "/v1/player/matches")
    assert status == 200 and listed["matches"][0]["players"] == [ann.id, bob.id]


async def test_a_failing_hook_leaves_the_challenge_made(
    aiohttp_client: AiohttpClient, caplog: pytest.LogCaptureFixture
) -> None:
    client = await relay(aiohttp_client, MemoryStore())
    ann, bob = await Player(client).known(), await Player(client).known()

    def broken(notice: ChallengeNotice) -> None:
        raise RuntimeError("push service away")

    client.server.app[API].challenges.told = broken
    status, made = await ann.challenge(bob)
    assert status == 201
    assert [c["id"] for c in (await bob.call("GET", "/v1/player/challenges"))[1]["incoming"]] == [
        made["id"]
    ]
    assert "the challenge hook failed" in caplog.text


async def test_a_decline_may_block_the_challenger(
    aiohttp_client: AiohttpClient, store: Store
) -> None:
    client = await relay(aiohttp_client, store)
    ann, bob = await Player(client).known(), await Player(client).known()
    made = (await ann.challenge(bob, name="Ann"))[1]
    assert code(await bob.answer(made["id"], "accept", block=True)) == (400, "request/invalid")
    status, declined = await bob.answer(made["id"], "decline", block=True)
    assert status == 200 and declined["state"] == "declined"
    blocks = (await bob.call("GET", "/v1/player/blocks"))[1]["blocks"]
    assert [(b["id"], b["name"], b["kind"]) for b in blocks] == [(ann.id, "Ann", "block")]
    assert code(await ann.challenge(bob)) == (409, "challenge/blocked")
    assert code(await bob.challenge(ann)) == (409, "challenge/blocked")


async def test_a_correspondence_challenge_waits_days(aiohttp_client: AiohttpClient) -> None:
    client = await relay(aiohttp_client, MemoryStore())
    ann, bob = await Player(client).known(), await Player(client).known()
    days = {"kind": "deadline", "per_move": 86400}
    status, made = await ann.challenge(bob, time_control=days)
    assert status == 201 and made["time_control"] == days
    assert made["until"] == pytest.approx(made["at"] + rules.LAPSE_CORRESPONDENCE)
    match = (await bob.answer(made["id"], "accept"))[1]["match"]
    status, info = await bob.call("GET", f"/v1/matches/{match}", check="/v1/matches/{match}")
    assert info["status"] == "playing" and info["time_control"] == days

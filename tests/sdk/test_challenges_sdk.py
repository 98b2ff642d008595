"""The SDK's challenge calls against an in-process relay: a player key lists the challenges made
to it, accepts one (its match is then among the key's matches, played with the key as the
seat's token) and declines another (docs/protocol.md#challenges)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import aiohttp
import orjson
import pytest

from relay.core.model import hash_token
from relay.core.standings import public_id
from sdk import RelayClient, RelayRefusedError, Ticket
from sdk.testing import FAST, local_relay


@pytest.fixture
async def relay() -> AsyncIterator[str]:
    """Returns the URL of a fresh in-process relay."""
    async with local_relay() as url:
        yield url


async def known(client: RelayClient) -> str:
    """Returns a new player key the relay knows by its public id (it sought, then cancelled)."""
    key = secrets.token_urlsafe(32)
    await client.cancel(await client.seek("chess", player=key))
    return key


async def challenge(session: aiohttp.ClientSession, relay: str, sender: str, to: str) -> str:
    """Makes a challenge over HTTP, as a page does."""
    body = {"to": public_id(hash_token(to)), "game": "chess", "colour": "second", "name": "Ann"}
    headers = {"Authorization": f"Bearer {sender}", "Content-Type": "application/json"}
    async with session.post(
        f"{relay}/v1/player/challenges", data=orjson.dumps(body), headers=headers
    ) as answer:
        assert answer.status == 201
        return str((await answer.json())["id"])


async def test_a_key_lists_accepts_and_declines_its_challenges(relay: str) -> None:
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, FAST)
        ann, bob = await known(client), await known(client)
        first = await challenge(session, relay, ann, bob)
        found = await client.challenges(bob)
        assert [c.id for c in found.incoming] == [first] and found.outgoing == []
        assert found.incoming[0].sender_name == "Ann" and found.incoming[0].state == "open"
        assert [c.id for c in (await client.challenges(ann)).outgoing] == [first]
        accepted = await client.accept_challenge(bob, first, name="Bob")
        assert accepted.state == "accepted" and accepted.match is not None
        assert (await client.accept_challenge(bob, first)).match == accepted.match
        [listed] = [m for m in await client.player_matches(bob) if m.match == accepted.match]
        assert listed.seat == 1 and listed.your_turn  # Ann moves second: Bob first
        assert await client.move(Ticket(accepted.match, 1, bob), 1, "e4") == 2
        second = await challenge(session, relay, ann, bob)
        declined = await client.decline_challenge(bob, second)
        assert declined.state == "declined" and declined.match is None
        with pytest.raises(RelayRefusedError) as refused:
            await client.accept_challenge(bob, second)
        assert refused.value.code == "challenge/settled"


async def test_a_key_challenges_a_public_id_and_withdraws(relay: str) -> None:
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, FAST)
        ann, bob = await known(client), await known(client)
        bob_id = public_id(hash_token(bob))
        clock = {"kind": "deadline", "per_move": 86400}
        made = await client.challenge(ann, bob_id, "chess", time_control=clock, colour="first",
                                      name="Ann")  # fmt: skip
        assert (made.state, made.receiver, made.colour, made.rated) == (
            "open",
            bob_id,
            "first",
            False,
        )
        assert made.time_control == clock and made.sender_name == "Ann"
        assert [c.id for c in (await client.challenges(bob)).incoming] == [made.id]
        # Sent again (an answer lost): refused, the first stands.
        with pytest.raises(RelayRefusedError) as again:
            await client.challenge(ann, bob_id, "chess")
        assert again.value.code == "challenge/open"
        withdrawn = await client.withdraw_challenge(ann, made.id)
        assert withdrawn.state == "withdrawn"
        assert (await client.challenges(bob)).incoming[0].state == "withdrawn"
        with pytest.raises(RelayRefusedError) as self_challenge:
            await client.challenge(ann, public_id(hash_token(ann)), "chess")
        assert self_challenge.value.code == "challenge/self"

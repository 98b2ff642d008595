"""Rematches through the SDK: two hosts play, both offer, and the new match is played with
the first mover swapped; a decline or a lapse ends it there. Also the lobby's calls."""

from __future__ import annotations

import asyncio
import re
import secrets
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from examples.xand0.game import Xand0Bot
from sdk import GameHost, HostStateError, Outcome, RelayClient, RelayHost
from sdk.testing import FAST, local_relay

SDK_DOC = (Path(__file__).resolve().parents[2] / "docs" / "sdk.md").read_text()
"""docs/sdk.md, whose rematch recipe runs as written."""


def bot(host: GameHost, first_move: bool) -> Xand0Bot:
    """A perfect X and 0 player."""
    return Xand0Bot(host, first_move)


async def played_pair(relay: str) -> tuple[list[RelayHost], list[Outcome]]:
    """Plays one X and 0 match between two bots to its end."""
    room = "rematch-" + secrets.token_hex(6)
    hosts = [RelayHost(relay, "xand0", bot, version="1", room=room, timing=FAST) for _ in "ab"]
    async with asyncio.timeout(30):
        outcomes = await asyncio.gather(*(host.play() for host in hosts))
    return hosts, list(outcomes)


def first_mover(host: RelayHost) -> bool:
    """Returns whether the host's game moved first."""
    game = host.game
    assert isinstance(game, Xand0Bot)
    return game.first_move


async def test_both_offers_start_a_rematch_with_the_first_mover_swapped(relay: str) -> None:
    hosts, _ = await played_pair(relay)
    before = [first_mover(host) for host in hosts]
    async with asyncio.timeout(30):
        again = await asyncio.gather(*(host.offer_rematch() for host in hosts))
    assert all(isinstance(host, RelayHost) for host in again)
    new = [host for host in again if host is not None]
    assert new[0].ticket is not None and new[1].ticket is not None
    assert new[0].ticket.match == new[1].ticket.match != hosts[0].ticket.match  # type: ignore[union-attr]
    async with asyncio.timeout(30):
        outcomes = await asyncio.gather(*(host.play() for host in new))
    assert [first_mover(host) for host in new] == [not first for first in before]
    assert {outcome.result.value for outcome in outcomes} <= {"won", "lost", "drawn"}


async def test_an_offer_is_heard_by_the_partner_and_can_be_declined(relay: str) -> None:
    hosts, _ = await played_pair(relay)
    offering = asyncio.create_task(hosts[0].offer_rematch())
    async with asyncio.timeout(10):
        heard = await hosts[1].next_rematch(0)
        assert heard.state == "offered" and heard.offered_by(hosts[0].ticket.seat)  # type: ignore[union-attr]
        declined = await hosts[1].decline_rematch()
        assert declined.state == "declined"
        assert await offering is None


async def test_an_offer_lapses_after_the_grace_period() -> None:
    async with local_relay(hold=0.5, grace=1.5) as relay:
        hosts, _ = await played_pair(relay)
        async with asyncio.timeout(10):
            assert await hosts[0].offer_rematch() is None


async def test_a_rematch_is_offered_only_after_the_end(relay: str) -> None:
    host = RelayHost(relay, "xand0", bot, version="1", timing=FAST)
    with pytest.raises(HostStateError):
        await host.offer_rematch()


async def test_the_lobby_lists_a_public_seek_and_wakes_its_poll(relay: str) -> None:
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, FAST)
        empty = await client.lobby("sdk-lobby")
        poll = asyncio.create_task(client.lobby("sdk-lobby", empty.version, 5))
        ticket = await client.seek("sdk-lobby", "1", room="r1", public=True)
        async with asyncio.timeout(5):
            lobby = await poll
        assert [(e.match, e.room, e.status) for e in lobby.open] == [
            (ticket.match, "r1", "waiting")
        ]
        assert lobby.live == () and lobby.version > empty.version


async def test_the_rematch_recipe_of_the_sdk_doc_plays_until_a_side_says_no(relay: str) -> None:
    found = re.search(r"<!-- example: rematch -->\n```python\n(.*?)```", SDK_DOC, re.S)
    assert found is not None, "docs/sdk.md has no rematch recipe"
    recipe: dict[str, Any] = {}
    exec(compile(found.group(1), "rematch-recipe", "exec"), recipe)
    room = "recipe-" + secrets.token_hex(6)
    hosts = [RelayHost(relay, "xand0", bot, version="1", room=room, timing=FAST) for _ in "ab"]

    async def twice_then_no(host: RelayHost) -> int:
        # The other side: plays, rematches once, then declines the next offer.
        await host.play()
        follow = await host.offer_rematch()
        assert follow is not None
        await follow.play()
        offered = await follow.next_rematch(0)
        assert offered.state == "offered"
        await follow.decline_rematch()
        return 2

    async with asyncio.timeout(40):
        played = await asyncio.gather(recipe["play_until_no"](hosts[0]), twice_then_no(hosts[1]))
    assert list(played) == [2, 2]

"""No ghost at the table through the SDK (as the terminal clients use it): a waiting seeker
whose network died silently is never paired, and the live seeker who came is paired with the
next player instead, without a word."""

from __future__ import annotations

import asyncio
import secrets
import time

import aiohttp

from sdk import RelayHost, State
from sdk.testing import FAST
from tests.support.cut_proxy import CutProxy
from tests.support.idle_game import Idle
from tests.support.relay_process import RelayProcess, quick_flags

WATCHED_S = 6.0
"""How long the live seeker is watched: past the pair window (3 s) and the reaper's turn."""


async def status_of(url: str, match: str) -> str:
    """Returns a match's status, or the code of the relay's refusal to tell it."""
    async with aiohttp.ClientSession() as session, session.get(f"{url}/v1/matches/{match}") as got:
        body = await got.json()
        return str(body["status"] if got.status == 200 else body["error"]["code"])


async def test_a_seeker_at_once_never_plays_an_sdk_seeker_whose_network_died() -> None:
    game = "ghosts" + secrets.token_hex(4)
    with RelayProcess(*quick_flags()) as relay, CutProxy(relay.port) as proxy:
        states: dict[str, list[State]] = {"ghost": [], "bob": [], "cat": []}

        def host(name: str, url: str) -> RelayHost:
            return RelayHost(url, game, Idle, timing=FAST, on_state=states[name].append)

        ghost, bob, cat = host("ghost", proxy.url), host("bob", relay.url), host("cat", relay.url)
        tasks = [asyncio.create_task(ghost.play())]
        try:
            for _ in range(500):  # 10 s at most
                if ghost.ticket is not None:
                    break
                await asyncio.sleep(0.02)
            assert ghost.ticket is not None, "the ghost's seek was not answered"
            haunted = ghost.ticket.match
            await asyncio.sleep(0.3)  # its poll held
            proxy.cut()

            # 0 s later, a new seeker: seated in the ghost's match for a moment, never shown it.
            tasks.append(asyncio.create_task(bob.play()))
            began, requeued = time.monotonic(), None
            seen = set()
            for _ in range(int(WATCHED_S / 0.1)):
                seen.add(await status_of(relay.url, haunted))
                if requeued is None and bob.ticket is not None and bob.ticket.match != haunted:
                    requeued = time.monotonic() - began
                await asyncio.sleep(0.1)
            assert requeued is not None, "the live seeker never sought again"
            print(f"\nthe live seeker waited again in a match of its own after {requeued:.1f} s")
            assert "playing" not in seen and await status_of(relay.url, haunted) == "match/expired"
            assert states["bob"] == [State.LISTENING], states["bob"]
            assert bob.ticket is not None and bob.ticket.match != haunted

            # The next live seeker meets bob, who never knew.
            tasks.append(asyncio.create_task(cat.play()))
            for _ in range(200):  # 10 s at most
                if State.PLAYING_TO_MOVE in states["bob"] + states["cat"]:
                    break
                await asyncio.sleep(0.05)
            assert State.PLAYING_TO_MOVE in states["bob"] + states["cat"], states
            assert cat.ticket is not None and cat.ticket.match == bob.ticket.match
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

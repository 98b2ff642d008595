"""The push dispatcher end to end, against the local push service: a turn reaches each of the
player's browsers once, a dead subscription is dropped, turns held by the window are told at
its end, and a store that fails loses a push, not the dispatcher."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from relay.push.dispatch import Pusher
from relay.push.keys import VapidKey
from relay.push.messages import turn
from relay.push.sender import PushSender, PushSettings
from relay.push.subscription import Subscription
from relay.push.throttle import PushThrottle
from relay.store.memory.hooks import MemoryHookState
from tests.support.push_service import PushService

KEY = VapidKey.generate("mailto:host@example.org")


class Kept:
    """Subscriptions kept in a dict, as a store's part would keep them."""

    def __init__(self) -> None:
        self.by_player: dict[str, list[Subscription]] = {}
        self.fail = False

    async def of(self, player: str) -> list[Subscription]:
        if self.fail:
            raise ConnectionError("the store is down")
        return list(self.by_player.get(player, []))

    async def drop(self, player: str, endpoint: str) -> None:
        kept = self.by_player.get(player, [])
        self.by_player[player] = [sub for sub in kept if sub.endpoint != endpoint]


@pytest.fixture
async def service() -> AsyncIterator[PushService]:
    async with PushService() as service:
        yield service


async def pusher(kept: Kept, every: float) -> Pusher:
    sender = PushSender(KEY, PushSettings(timeout=1, attempts=1))
    await sender.start()
    made = Pusher(sender, PushThrottle(MemoryHookState(), every), kept)
    await made.start()
    return made


async def stop(made: Pusher) -> None:
    await made.close()
    await made.sender.close()


async def test_a_turn_reaches_each_browser_once_and_a_gone_one_is_dropped(
    service: PushService,
) -> None:
    phone, laptop, old = (service.subscribe(KEY.public) for _ in range(3))
    kept = Kept()
    kept.by_player["p"] = [
        Subscription.from_json(b.subscription(), loopback_http=True) for b in (phone, laptop, old)
    ]
    service.answer(old, 410)
    made = await pusher(kept, every=0)
    try:
        notice = turn("xand0", "m1", 0, due=None, now=0)
        made("p", "m1:0:3", notice)
        made("p", "m1:0:3", notice)  # the same turn told again: pushed once
        await made.idle()
    finally:
        await stop(made)
    assert [len(service.pushes_to(b)) for b in (phone, laptop, old)] == [1, 1, 0]
    assert [sub.endpoint for sub in kept.by_player["p"]] == [phone.endpoint, laptop.endpoint]
    assert made.counts["delivered"] == 2 and made.counts["gone"] == 1
    assert service.refused == []


async def test_turns_held_by_the_window_are_told_at_its_end(service: PushService) -> None:
    browser = service.subscribe(KEY.public)
    kept = Kept()
    kept.by_player["p"] = [Subscription.from_json(browser.subscription(), loopback_http=True)]
    made = await pusher(kept, every=0.4)
    try:
        for match in ("m1", "m2", "m3"):
            made("p", f"{match}:0:2", turn("xand0", match, 0, due=None, now=0))
        await made.idle()
        assert [p.json()["match"] for p in service.pushes_to(browser)] == ["m1"]
        await asyncio.sleep(0.6)
        await made.idle()
    finally:
        await stop(made)
    _, held = (p.json() for p in service.pushes_to(browser))
    assert held["body"] == "Your turn in 2 matches." and held["tag"] == "digest"


async def test_a_failing_store_loses_a_push_not_the_dispatcher(service: PushService) -> None:
    browser = service.subscribe(KEY.public)
    kept = Kept()
    kept.by_player["p"] = [Subscription.from_json(browser.subscription(), loopback_http=True)]
    made = await pusher(kept, every=0)
    try:
        kept.fail = True
        made("p", "m1:0:2", turn("xand0", "m1", 0, due=None, now=0))
        await made.idle()
        kept.fail = False
        made("p", "m2:0:2", turn("xand0", "m2", 0, due=None, now=0))
        await made.idle()
    finally:
        await stop(made)
    assert [p.json()["match"] for p in service.pushes_to(browser)] == ["m2"]
    assert made.counts["dropped"] == 1

"""Web Push wired into the relay (docs/web-push.md): the sender, the throttle on the store's
shared state, the dispatcher and its triggers, started with the application and stopped
before the store closes. Off unless the relay has a VAPID key (Config.push_key)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from aiohttp import web

from relay.core.turns import TurnNotice, TurnSink
from relay.http.state import API, CONFIG, METRICS, PUSH, STORE
from relay.push.dispatch import Pusher
from relay.push.sender import PushSender
from relay.push.stored import StoredSubscriptions
from relay.push.throttle import PushThrottle
from relay.push.triggers import PushTriggers

__all__ = ["push_ctx"]


class Both:
    """A turn sink that tells two: the webhook's, then Web Push's (each only queues)."""

    def __init__(self, first: TurnSink, second: TurnSink) -> None:
        self.first = first
        self.second = second

    def __call__(self, notice: TurnNotice) -> None:
        self.first(notice)
        self.second(notice)


async def push_ctx(app: web.Application) -> AsyncIterator[None]:
    """Pushes the store's turns, low clocks and ends, and the challenges made, while the
    application runs (a cleanup context, after the webhook's)."""
    config, store, api = app[CONFIG], app[STORE], app[API]
    key = api.push.key
    if key is None:
        yield
        return
    counts = app[METRICS].pushes
    sender = PushSender(key, counts=counts)
    await sender.start()
    throttle = PushThrottle(store.hooks.state(), config.push_every)
    kept = StoredSubscriptions(store.push, loopback_http=config.push_loopback)
    pusher = Pusher(sender, throttle, kept)
    await pusher.start()
    recheck = PushTriggers.recheck_for(config.hold)
    triggers = PushTriggers(store, pusher, recheck, counts=counts)
    await triggers.start()
    app[PUSH] = (triggers, pusher)
    webhook = store.hooks.turns
    store.hooks.turns = triggers.turn if webhook is None else Both(webhook, triggers.turn)
    store.hooks.ended = triggers.ended
    store.hooks.timed = True
    api.challenges.told = triggers.challenge
    yield
    api.challenges.told = None
    store.hooks.timed = False
    store.hooks.ended = None
    store.hooks.turns = webhook
    await triggers.close()
    await pusher.close()
    await sender.close()

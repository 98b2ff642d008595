"""The endpoints of Web Push (docs/protocol.md#web-push): whether the relay pushes, and its
public VAPID key; a player key adding its browser's subscription, and removing it.

A subscription is checked (relay.push.subscription) before the store is touched: the relay
will POST to the URL it names, so only an https endpoint that is not a private address is
kept. Each client may add or remove RATE a minute."""

from __future__ import annotations

import time

import orjson

from relay.api.calls import Call, Reply
from relay.api.fields.request import json_body, require_player
from relay.api.limits import RateLimiter
from relay.config import Config
from relay.core.errors import RelayError
from relay.core.model import hash_token
from relay.push.keys import VapidKey, read_key
from relay.push.subscription import MAX_ENDPOINT, Subscription, SubscriptionError
from relay.store.base import Store

__all__ = ["RATE", "PushEndpoints", "vapid_key"]

RATE = 12
"""Subscriptions one client may add or remove a minute (a page renews its own on each visit)."""


def vapid_key(config: Config) -> VapidKey | None:
    """Returns the relay's VAPID key from its settings (None: Web Push is off); raises
    ValueError, never quoting the key, when it is not a P-256 private key or the subject is
    not a contact."""
    if not config.push_key:
        return None
    return VapidKey(read_key(config.push_key), config.push_subject)


class PushEndpoints:
    """Web Push's endpoints over one store, with this process's rate of subscription changes."""

    def __init__(self, config: Config, store: Store) -> None:
        self.key = vapid_key(config)
        self.public = None if self.key is None else self.key.public
        self.loopback = config.push_loopback
        self.store = store
        self.changes = RateLimiter.per_minute(RATE)
        """Per client: subscriptions added or removed."""

    def _player(self, call: Call) -> str:
        """Returns the bearer's player key's digest, once push is on, the key is well formed
        and the client within its rate: before any other work."""
        if self.public is None:
            raise RelayError("push/off")
        player = require_player(call.authorization)
        wait = self.changes.take(call.client, time.time())
        if wait:
            raise RelayError("limit/push", retry_after=wait)
        return hash_token(player)

    async def push_key(self, call: Call) -> Reply:
        """GET /v1/push: whether the relay pushes, and the key a page subscribes with."""
        return 200, orjson.dumps(
            {"offered": self.public is not None, "applicationServerKey": self.public}
        )

    async def subscribe(self, call: Call) -> Reply:
        """POST /v1/player/push: keeps the bearer's browser's subscription (renewing it)."""
        player = self._player(call)
        body = json_body(call.content_type, call.body)
        try:
            subscription = Subscription.from_json(
                body.get("subscription"), loopback_http=self.loopback
            )
        except SubscriptionError as exc:
            raise RelayError("push/subscription", f"{exc}.") from None
        data = orjson.dumps(subscription.to_json())
        count = await self.store.push.keep(player, subscription.endpoint, data, time.time())
        return 201, orjson.dumps({"subscriptions": count})

    async def unsubscribe(self, call: Call) -> Reply:
        """POST /v1/player/push/remove: forgets the bearer's subscription of an endpoint."""
        player = self._player(call)
        endpoint = json_body(call.content_type, call.body).get("endpoint")
        if not isinstance(endpoint, str) or not 0 < len(endpoint) <= MAX_ENDPOINT:
            raise RelayError(
                "request/invalid",
                f"endpoint must be the subscription's endpoint URL, at most {MAX_ENDPOINT} "
                "characters.",
            )
        removed = await self.store.push.drop(player, endpoint)
        return 200, orjson.dumps({"removed": removed})

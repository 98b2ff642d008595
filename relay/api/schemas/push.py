"""The schemas of Web Push (relay.api.push): the relay's public key, a browser's subscription
and the answers about it."""

from __future__ import annotations

from typing import Any

from relay.core.patterns import B64URL_TEXT, anchored
from relay.push.subscription import MAX_ENDPOINT

__all__ = ["REPLIES", "SCHEMAS"]

_B64URL = anchored(B64URL_TEXT)
_ENDPOINT = {"type": "string", "minLength": 1, "maxLength": MAX_ENDPOINT}

SCHEMAS: dict[str, Any] = {
    "PushKey": {
        "type": "object",
        "required": ["offered", "applicationServerKey"],
        "properties": {
            "offered": {
                "type": "boolean",
                "description": "Whether the relay pushes to browsers (false: the other push "
                "calls answer 404 push/off).",
            },
            "applicationServerKey": {
                "type": ["string", "null"],
                "pattern": _B64URL,
                "description": "The relay's public VAPID key (base64url of the 65-byte P-256 "
                "point), for pushManager.subscribe; null when the relay does not push.",
            },
        },
    },
    "PushBody": {
        "type": "object",
        "required": ["subscription"],
        "properties": {
            "subscription": {
                "type": "object",
                "required": ["endpoint", "keys"],
                "properties": {
                    "endpoint": {
                        **_ENDPOINT,
                        "description": "An https:// URL at the browser's push service; no "
                        "user, password, fragment, or private or loopback address.",
                    },
                    "expirationTime": {"type": ["number", "null"]},
                    "keys": {
                        "type": "object",
                        "required": ["p256dh", "auth"],
                        "properties": {
                            "p256dh": {"type": "string", "pattern": _B64URL},
                            "auth": {"type": "string", "pattern": _B64URL},
                        },
                    },
                },
                "description": "PushSubscription.toJSON(), as the browser gives it.",
            }
        },
    },
    "PushEndpointBody": {
        "type": "object",
        "required": ["endpoint"],
        "properties": {"endpoint": _ENDPOINT},
    },
    "PushSubscribed": {
        "type": "object",
        "required": ["subscriptions"],
        "properties": {
            "subscriptions": {
                "type": "integer",
                "minimum": 1,
                "description": "How many browsers the player key is pushed to now.",
            }
        },
    },
    "PushRemoved": {
        "type": "object",
        "required": ["removed"],
        "properties": {"removed": {"type": "boolean"}},
    },
}

REPLIES = {
    "PushKey": "Whether the relay pushes, and its public key.",
    "PushSubscribed": "The subscription is kept (renewed if it was).",
    "PushRemoved": "Whether a subscription of that endpoint was kept.",
}
"""What a successful answer of each push reply says."""

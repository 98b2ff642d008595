"""Web Push's endpoints over HTTP, on each store (memory, Redis, Redis Cluster): the relay's
public key, a player key's browser subscribing and unsubscribing, each answer checked against
the OpenAPI document; a bad subscription, a bad bearer, too many changes from a client and a
relay without a key are each refused by name before any work (docs/protocol.md#web-push)."""

from __future__ import annotations

import secrets
import time
from typing import Any

import orjson
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pytest_aiohttp import AiohttpClient

from relay import Config, MemoryStore, Store, create_app
from relay.api.push import RATE
from relay.core.model import hash_token
from relay.http.proxy import behind_proxy
from relay.push.keys import VapidKey, b64url
from relay.store.push import SUBSCRIPTIONS_PER_PLAYER
from tests.relay.api.keyed_client import KeyedClient

pytestmark = pytest.mark.timeout(30)

KEY = VapidKey.generate("mailto:host@games.example")
PEM = KEY.private.private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
)


def player() -> str:
    return secrets.token_urlsafe(32)


Browser = KeyedClient
"""One browser's client of the relay."""


async def relay(aiohttp_client: AiohttpClient, store: Store | None = None, on: bool = True) -> Any:
    config = Config(
        hold=1.0, requests_per_second=100000.0, trusted_proxies=("127.0.0.1",),
        push_key=PEM if on else b"", push_subject="mailto:host@games.example",
        push_loopback=True,
    )  # fmt: skip
    return await aiohttp_client(behind_proxy(create_app(config, store), config))


def subscription(endpoint: str = "https://push.example/send/1") -> dict[str, Any]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {"endpoint": endpoint, "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(secrets.token_bytes(16))}}  # fmt: skip


async def test_the_relay_tells_its_public_key_and_keeps_a_subscription(
    aiohttp_client: AiohttpClient, store: Store
) -> None:
    client = await relay(aiohttp_client, store)
    status, found = await Browser(client).call("GET", "/v1/push")
    assert (status, found) == (200, {"offered": True, "applicationServerKey": KEY.public})
    one = player()
    browser = Browser(client, one)
    given = subscription()
    status, found = await browser.call("POST", "/v1/player/push", {"subscription": given})
    assert (status, found) == (201, {"subscriptions": 1})
    # The same browser again renews it; another adds one.
    status, found = await browser.call("POST", "/v1/player/push", {"subscription": given})
    assert (status, found) == (201, {"subscriptions": 1})
    other = subscription("https://push.example/send/2")
    status, found = await browser.call("POST", "/v1/player/push", {"subscription": other})
    assert (status, found) == (201, {"subscriptions": 2})
    kept = [orjson.loads(data) for data in await store.push.of(hash_token(one), time.time())]
    assert [sub["endpoint"] for sub in kept] == [other["endpoint"], given["endpoint"]]
    assert kept[1]["keys"] == given["keys"]
    body = {"endpoint": given["endpoint"]}
    status, found = await browser.call("POST", "/v1/player/push/remove", body)
    assert (status, found) == (200, {"removed": True})
    status, found = await browser.call("POST", "/v1/player/push/remove", body)
    assert (status, found) == (200, {"removed": False})
    # Another key removes nothing of this one's.
    body = {"endpoint": other["endpoint"]}
    status, found = await Browser(client, player()).call("POST", "/v1/player/push/remove", body)
    assert (status, found) == (200, {"removed": False})
    assert len(await store.push.of(hash_token(one), time.time())) == 1


async def test_a_key_is_pushed_to_a_handful_of_browsers(aiohttp_client: AiohttpClient) -> None:
    store = MemoryStore()
    client = await relay(aiohttp_client, store)
    one = player()
    for n in range(SUBSCRIPTIONS_PER_PLAYER + 2):
        body = {"subscription": subscription(f"https://push.example/send/{n}")}
        status, found = await Browser(client, one).call("POST", "/v1/player/push", body)
        assert status == 201 and found["subscriptions"] == min(n + 1, SUBSCRIPTIONS_PER_PLAYER)
    kept = [
        orjson.loads(data)["endpoint"] for data in await store.push.of(hash_token(one), time.time())
    ]
    assert kept == [f"https://push.example/send/{n}" for n in range(9, 1, -1)]


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (None, "an object with endpoint and keys"),
        ({"endpoint": "http://push.example/1", "keys": {}}, "an https:// URL"),
        ({"endpoint": "https://10.0.0.7/send", "keys": {}}, "private or loopback"),
        ({"endpoint": "https://169.254.169.254/latest", "keys": {}}, "private or loopback"),
        ({"endpoint": "https://u:p@push.example/1", "keys": {}}, "no user, password"),
        ({"endpoint": "https://push.example/" + "a" * 1024, "keys": {}}, "at most 1024"),
        ("bad p256dh", "not a point of the P-256 curve"),
        ("short auth", "must be 16 bytes"),
    ],
)  # fmt: skip
async def test_a_bad_subscription_is_refused_before_any_work(
    aiohttp_client: AiohttpClient, given: Any, said: str
) -> None:
    store = MemoryStore()
    client = await relay(aiohttp_client, store)
    if given == "bad p256dh":
        given = subscription()
        given["keys"]["p256dh"] = b64url(b"\x04" + bytes(64))
    elif given == "short auth":
        given = subscription()
        given["keys"]["auth"] = b64url(bytes(15))
    elif given is not None and "keys" in given:
        given["keys"] = subscription()["keys"]
    one = player()
    status, found = await Browser(client, one).call(
        "POST", "/v1/player/push", {"subscription": given}
    )
    assert (status, found["error"]["code"]) == (400, "push/subscription")
    assert said in found["error"]["message"]
    assert await store.push.of(hash_token(one), time.time()) == []


@pytest.mark.parametrize("path", ["/v1/player/push", "/v1/player/push/remove"])
async def test_the_bearer_is_checked_first(aiohttp_client: AiohttpClient, path: str) -> None:
    client = await relay(aiohttp_client)
    status, found = await Browser(client).call("POST", path, {})
    assert (status, found["error"]["code"]) == (401, "auth/required")
    status, found = await Browser(client, "short").call("POST", path, {})
    assert (status, found["error"]["code"]) == (403, "auth/bad_token")
    status, found = await Browser(client, player()).call("POST", path, {"endpoint": 7})
    assert status == 400


async def test_changes_are_limited_per_client(aiohttp_client: AiohttpClient) -> None:
    client = await relay(aiohttp_client)
    browser = Browser(client, player())
    body = {"subscription": subscription()}
    for _ in range(RATE):
        assert (await browser.call("POST", "/v1/player/push", body))[0] == 201
    status, found = await browser.call("POST", "/v1/player/push", body)
    assert (status, found["error"]["code"]) == (429, "limit/push")
    # Many keys from one client meet the same limit; another client does not.
    status, found = await Browser(client, player(), browser.address).call(
        "POST", "/v1/player/push/remove", {"endpoint": "https://push.example/x"}
    )
    assert (status, found["error"]["code"]) == (429, "limit/push")
    status, _ = await Browser(client, player()).call("POST", "/v1/player/push", body)
    assert status == 201


async def test_without_a_key_push_is_off(aiohttp_client: AiohttpClient) -> None:
    client = await relay(aiohttp_client, on=False)
    status, found = await Browser(client).call("GET", "/v1/push")
    assert (status, found) == (200, {"offered": False, "applicationServerKey": None})
    for path, body in (
        ("/v1/player/push", {"subscription": subscription()}),
        ("/v1/player/push/remove", {"endpoint": "https://push.example/send/1"}),
    ):
        status, found = await Browser(client, player()).call("POST", path, body)
        assert (status, found["error"]["code"]) == (404, "push/off")


async def test_a_full_memory_store_refuses_a_new_subscription(
    aiohttp_client: AiohttpClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("relay.store.memory.push.SUBSCRIPTIONS_MOST", 1)
    client = await relay(aiohttp_client, MemoryStore())
    body = {"subscription": subscription()}
    assert (await Browser(client, player()).call("POST", "/v1/player/push", body))[0] == 201
    status, found = await Browser(client, player()).call("POST", "/v1/player/push", body)
    assert (status, found["error"]["code"]) == (503, "push/full")


def test_a_bad_key_in_code_is_refused_when_the_app_is_made() -> None:
    with pytest.raises(ValueError, match="P-256"):
        create_app(Config(push_key=b"not a key", push_subject="mailto:host@games.example"))

"""Passkeys and transfer codes over HTTP, on each store (memory, Redis, Redis Cluster): a player
key bound to a passkey signs in on a second device and carries on its correspondence match
there; a transfer code does it once; every answer is checked against the OpenAPI document
(docs/protocol.md#passkeys)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest
from pytest_aiohttp import AiohttpClient

from relay import Config, Store, create_app
from relay.cli import parse_args
from relay.core.model import hash_token
from relay.core.passkeys import (
    CODES_PER_PLAYER,
    PASSKEYS_PER_PLAYER,
    PENDING_PER_PLAYER,
    TRIES_PER_MINUTE,
    PasskeySettings,
)
from relay.http.proxy import behind_proxy
from tests.relay.api.keyed_client import KeyedClient
from tests.support.authenticator import SoftAuthenticator, b64

pytestmark = pytest.mark.timeout(30)

ORIGIN = "https://games.example"
SETTINGS = PasskeySettings("games.example", (ORIGIN,), b"s" * 32)


def key() -> str:
    return secrets.token_urlsafe(32)


class Device(KeyedClient):
    """One device's client of the relay: its calls, each answer checked against the document."""

    async def register(self, authenticator: SoftAuthenticator, label: str = "") -> Any:
        status, body = await self.call("POST", "/v1/player/passkeys/options")
        assert status == 200, body
        answer = authenticator.create(body["options"])
        status, body = await self.call(
            "POST", "/v1/player/passkeys", {"credential": answer, "label": label}
        )
        assert status == 201, body
        return body["passkeys"]

    async def sign_in(self, authenticator: SoftAuthenticator, which: int = -1) -> tuple[int, Any]:
        status, body = await self.call("POST", "/v1/signin/options")
        assert status == 200, body
        return await self.call(
            "POST", "/v1/signin/passkey", {"credential": authenticator.get(body["options"], which)}
        )


async def relay(
    aiohttp_client: AiohttpClient, store: Store | None = None, passkeys: bool = True
) -> Any:
    config = Config(
        hold=1.0, requests_per_second=100000.0, trusted_proxies=("127.0.0.1",),
        passkeys=SETTINGS if passkeys else None,
    )  # fmt: skip
    return await aiohttp_client(behind_proxy(create_app(config, store), config))


async def test_a_passkey_brings_the_key_and_its_match_to_another_device(
    aiohttp_client: AiohttpClient, store: Store
) -> None:
    client = await relay(aiohttp_client, store)
    player, partner = key(), key()
    phone = Device(client, player)
    seek = {"game": "g", "player": player, "time_control": {"kind": "deadline", "per_move": 86400}}
    status, mine = await phone.call("POST", "/v1/seek", {**seek, "name": "Ann"})
    assert status == 201
    other = Device(client, partner)
    status, theirs = await other.call("POST", "/v1/seek", {**seek, "player": partner})
    assert theirs["match"] == mine["match"]
    authenticator = SoftAuthenticator(ORIGIN)
    listed = await phone.register(authenticator, "Phone")
    assert [entry["label"] for entry in listed] == ["Phone"]
    assert listed[0]["id"] == b64(authenticator.credentials[0].id)

    laptop = Device(client)
    status, body = await laptop.sign_in(authenticator)
    # The key comes with the name it sought under, for the new device to show and seek with.
    assert status == 200 and body == {"player": player, "name": "Ann"}
    laptop.player = body["player"]
    status, found = await laptop.call("GET", "/v1/player/matches")
    assert [m["match"] for m in found["matches"]] == [mine["match"]]
    events = f"/v1/matches/{mine['match']}/events?after=0&wait=0"
    status, log = await laptop.call("GET", events, check="/v1/matches/{match}/events")
    first = log["events"][0]["first"]
    mover = laptop if (first == 0) == (mine["seat"] == 0) else other
    status, moved = await mover.call(
        "POST", f"/v1/matches/{mine['match']}/moves", {"after": 1, "move": "e4"},
        check="/v1/matches/{match}/moves",
    )  # fmt: skip
    assert status == 200, moved
    # A second sign-in works as well; the counter the authenticator keeps moved on.
    assert (await laptop.sign_in(authenticator))[1] == {"player": player, "name": "Ann"}


async def test_passkeys_are_listed_capped_and_removed(
    aiohttp_client: AiohttpClient, store: Store
) -> None:
    client = await relay(aiohttp_client, store)
    device = Device(client, key())
    authenticator = SoftAuthenticator(ORIGIN, counting=False)
    for n in range(PASSKEYS_PER_PLAYER):
        listed = await device.register(authenticator, f"key {n}")
    assert [entry["label"] for entry in listed] == [f"key {n}" for n in range(PASSKEYS_PER_PLAYER)]
    status, body = await device.call("POST", "/v1/player/passkeys/options")
    assert (status, body["error"]["code"]) == (409, "passkey/full")
    gone = listed[0]["id"]
    status, body = await device.call("POST", "/v1/player/passkeys/remove", {"id": gone})
    assert status == 200 and gone not in [entry["id"] for entry in body["passkeys"]]
    status, body = await Device(client).sign_in(authenticator, 0)
    assert (status, body["error"]["code"]) == (403, "passkey/refused")
    signed_in = {"player": device.player, "name": None}
    assert (await Device(client).sign_in(authenticator, 1))[1] == signed_in
    status, body = await device.call("GET", "/v1/player/passkeys")
    assert len(body["passkeys"]) == PASSKEYS_PER_PLAYER - 1
    # Another key cannot remove it, nor see it.
    stranger = Device(client, key())
    status, body = await stranger.call(
        "POST", "/v1/player/passkeys/remove", {"id": listed[1]["id"]}
    )
    assert status == 200 and body == {"passkeys": [], "offered": True}
    assert (await Device(client).sign_in(authenticator, 1))[0] == 200


async def test_a_challenge_is_answered_once_and_only_from_the_hosts_origin(
    aiohttp_client: AiohttpClient, store: Store
) -> None:
    client = await relay(aiohttp_client, store)
    device = Device(client, key())
    authenticator = SoftAuthenticator(ORIGIN)
    status, body = await device.call("POST", "/v1/player/passkeys/options")
    answer = authenticator.create(body["options"])
    status, body = await device.call("POST", "/v1/player/passkeys", {"credential": answer})
    assert status == 201
    status, body = await device.call("POST", "/v1/player/passkeys", {"credential": answer})
    assert (status, body["error"]["code"]) == (409, "passkey/challenge")
    # Another key cannot answer this key's challenge.
    status, body = await device.call("POST", "/v1/player/passkeys/options")
    answer = authenticator.create(body["options"])
    stranger = Device(client, key())
    status, body = await stranger.call("POST", "/v1/player/passkeys", {"credential": answer})
    assert (status, body["error"]["code"]) == (409, "passkey/challenge")
    # A page of another origin is refused.
    phishing = SoftAuthenticator("https://games.example.evil")
    phishing.credentials = authenticator.credentials
    status, body = await Device(client).call("POST", "/v1/signin/options")
    status, body = await Device(client).call(
        "POST", "/v1/signin/passkey", {"credential": phishing.get(body["options"])}
    )
    assert (status, body["error"]["code"]) == (403, "passkey/refused")
    # A sign-in answer is good once.
    status, body = await Device(client).call("POST", "/v1/signin/options")
    signed = {"credential": authenticator.get(body["options"], 0)}
    assert (await Device(client).call("POST", "/v1/signin/passkey", signed))[0] == 200
    status, body = await Device(client).call("POST", "/v1/signin/passkey", signed)
    assert (status, body["error"]["code"]) == (409, "passkey/challenge")
    # One passkey is bound to one key, once.
    for who in (device, stranger):
        status, body = await who.call("POST", "/v1/player/passkeys/options")
        again = {"credential": authenticator.create(body["options"], again=0)}
        status, body = await who.call("POST", "/v1/player/passkeys", again)
        assert (status, body["error"]["code"]) == (409, "passkey/exists")
    # Pending registrations are capped per key.
    for _ in range(PENDING_PER_PLAYER):
        assert (await stranger.call("POST", "/v1/player/passkeys/options"))[0] == 200
    status, body = await stranger.call("POST", "/v1/player/passkeys/options")
    assert (status, body["error"]["code"]) == (429, "passkey/busy")


async def test_a_transfer_code_signs_in_once(aiohttp_client: AiohttpClient, store: Store) -> None:
    client = await relay(aiohttp_client, store)
    device = Device(client, key())
    status, body = await device.call("POST", "/v1/player/code")
    assert status == 201
    code = body["code"]
    newcomer = Device(client)
    typed = {"code": code.lower().replace("-", " ")}
    signed_in = {"player": device.player, "name": None}  # a key that never sought: no name
    assert (await newcomer.call("POST", "/v1/signin/code", typed))[1] == signed_in
    status, body = await newcomer.call("POST", "/v1/signin/code", typed)
    assert (status, body["error"]["code"]) == (403, "code/unknown")
    for _ in range(CODES_PER_PLAYER - 1):
        assert (await device.call("POST", "/v1/player/code"))[0] == 201
    status, body = await device.call("POST", "/v1/player/code")
    assert (status, body["error"]["code"]) == (429, "code/too_many")


async def test_guesses_are_limited_per_client(aiohttp_client: AiohttpClient) -> None:
    client = await relay(aiohttp_client)
    guesser = Device(client)
    for _ in range(TRIES_PER_MINUTE):
        status, body = await guesser.call("POST", "/v1/signin/code", {"code": "2" * 10})
        assert (status, body["error"]["code"]) == (403, "code/unknown")
    status, body = await guesser.call("POST", "/v1/signin/code", {"code": "2" * 10})
    assert (status, body["error"]["code"]) == (429, "limit/signins")
    status, body = await guesser.call("POST", "/v1/signin/code", {"code": "0OI1"})
    assert status == 429


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/v1/player/passkeys", None),
        ("POST", "/v1/player/passkeys/options", None),
        ("POST", "/v1/player/passkeys", {"credential": {}}),
        ("POST", "/v1/player/passkeys/remove", {"id": "x"}),
        ("POST", "/v1/player/code", None),
    ],
)
async def test_the_bearer_is_checked_first(
    aiohttp_client: AiohttpClient, method: str, path: str, body: object
) -> None:
    client = await relay(aiohttp_client)
    status, found = await Device(client).call(method, path, body)
    assert (status, found["error"]["code"]) == (401, "auth/required")
    status, found = await Device(client, "short").call(method, path, body)
    assert (status, found["error"]["code"]) == (403, "auth/bad_token")


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/player/passkeys/options", None),
        ("/v1/signin/options", None),
        ("/v1/signin/passkey", {"credential": {}}),
        ("/v1/signin/code", {"code": "2" * 10}),
        ("/v1/player/code", None),
    ],
)
async def test_without_the_hosts_settings_passkeys_are_off(
    aiohttp_client: AiohttpClient, path: str, body: object
) -> None:
    client = await relay(aiohttp_client, passkeys=False)
    status, found = await Device(client, key()).call("POST", path, body)
    assert (status, found["error"]["code"]) == (404, "passkey/off")
    # The list answers, empty, and says so: a page asks it without meeting a refusal.
    status, found = await Device(client, key()).call("GET", "/v1/player/passkeys")
    assert (status, found) == (200, {"passkeys": [], "offered": False})


async def test_the_store_keeps_no_player_key_in_clear(aiohttp_client: AiohttpClient) -> None:
    from relay import MemoryStore

    store = MemoryStore()
    client = await relay(aiohttp_client, store)
    player = key()
    device = Device(client, player)
    await device.register(SoftAuthenticator(ORIGIN))
    await device.call("POST", "/v1/player/code")
    [passkey] = await store.passkeys.listed(hash_token(player))
    assert player not in repr(passkey) and player not in repr(store.passkeys.__dict__)


def test_the_hosts_settings_come_from_flags_and_a_file_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ["--passkey-rp-id", "games.example", "--passkey-origin", "https://games.example/",
             "--passkey-origin", "https://www.games.example"]  # fmt: skip
    secret = tmp_path / "passkey.secret"
    secret.write_text("  from-a-file-0123456789  \n")
    monkeypatch.setenv("MOVEWIRE_PASSKEY_SECRET", "from-the-environment-0123")
    from_file, _ = parse_args([*flags, "--passkey-secret-file", str(secret)])
    from_env, _ = parse_args(flags)
    assert from_file.passkeys is not None and from_env.passkeys is not None
    assert from_file.passkeys.secret == b"from-a-file-0123456789"
    assert from_env.passkeys.secret == b"from-the-environment-0123"
    assert from_env.passkeys.origins == ("https://games.example", "https://www.games.example")
    assert "from-" not in repr(from_file) + repr(from_env)
    assert parse_args([])[0].passkeys is None
    with pytest.raises(SystemExit):
        parse_args(["--passkey-rp-id", "games.example", "--passkey-origin", "https://evil.example"])
    assert "on the relying-party id 'games.example'" in capsys.readouterr().err

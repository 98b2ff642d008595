"""The your-turn webhook sender against a real receiver on a local socket: signed, sent once
per turn for the whole fleet, throttled into digests, retried while the receiver fails; its
shared state in memory, on Redis and on a Redis Cluster."""

from __future__ import annotations

import asyncio
import base64
import re
import textwrap
import time
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from standardwebhooks import Webhook as LibraryHook
from standardwebhooks import WebhookVerificationError

from relay import Store
from relay.__main__ import parse_args
from relay.config import webhook_key, webhook_keys
from relay.core.turns import TurnNotice
from relay.store.hooks import HookState
from relay.store.memory.hooks import MemoryHookState
from relay.webhook.sender import HookSettings, Webhook
from relay.webhook.sign import sign, verify
from tests.support.hook_receiver import Receiver
from tests.support.relay_process import free_port

SECRET = b"s" * 32
RAW = b"raw-secret-0123456789"
WHSEC = "whsec_" + base64.b64encode(bytes(range(32))).decode()
DOCS = Path(__file__).resolve().parents[3] / "docs" / "hosting.md"


def library(secret: bytes) -> str | bytes:
    """Returns a relay's secret as the standardwebhooks library takes it: a whsec_ secret as
    its str, any other as the raw key's bytes."""
    return secret.decode() if secret.startswith(b"whsec_") else secret


def notice(match: str = "m1", seat: int = 0, seq: int = 2, contact: str = "ann") -> TurnNotice:
    """Returns a turn notice."""
    return TurnNotice(match, "chess", seat, seq, contact, 1_900_000_000.5)


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    """Returns a receiver listening on a free port."""
    made = await Receiver(SECRET).start()
    try:
        yield made
    finally:
        await made.stop()


async def sender(url: str, state: HookState | None = None, **options: Any) -> Webhook:
    """Returns a started sender to url with its state (a fresh one in memory if None); senders
    given one state are the relay processes of one fleet."""
    made = Webhook(
        HookSettings(url, (SECRET,), **{"every": 0.0, **options}),
        state if state is not None else MemoryHookState(),
        Counter(),
    )
    await made.start()
    return made


async def settle(receiver: Receiver, count: int, quiet: float = 0.3) -> list[dict[str, Any]]:
    """Returns the deliveries once count arrived and no more came for `quiet` seconds."""
    await receiver.wait_for(count, 10)
    await asyncio.sleep(quiet)
    return receiver.got


def test_a_signature_verifies_only_its_own_id_body_secret_and_recent_time() -> None:
    body, now = b'{"id":"x"}', time.time()
    headers = sign([SECRET], "d1", body, now)
    assert headers["webhook-id"] == "d1" and headers["webhook-timestamp"] == str(int(now))
    assert re.fullmatch(r"v1,[A-Za-z0-9+/]{43}=", headers["webhook-signature"])
    assert verify(SECRET, headers, body)
    assert verify(SECRET, {name.upper(): value for name, value in headers.items()}, body)
    assert not verify(SECRET, headers, body + b" ")
    assert not verify(SECRET, {**headers, "webhook-id": "d2"}, body)
    assert not verify(b"t" * 32, headers, body)
    for late in (-310, 310):  # past the 300 s either way, whatever int() drops
        assert not verify(SECRET, sign([SECRET], "d1", body, now + late), body)
    for missing in headers:
        assert not verify(SECRET, {k: v for k, v in headers.items() if k != missing}, body)
    assert not verify(SECRET, {**headers, "webhook-timestamp": "１２"}, body)


@pytest.mark.parametrize("secret", [RAW, WHSEC.encode()], ids=["raw", "whsec"])
def test_the_standard_webhooks_library_and_the_relay_agree(secret: bytes) -> None:
    body = b'{"id":"d1","contact":"ann","turns":[]}'
    headers = sign([webhook_key(secret)], "d1", body, time.time())
    assert LibraryHook(library(secret)).verify(body, headers) == orjson.loads(body)
    signed_at = datetime.now(tz=UTC)
    theirs = {
        "webhook-id": "d1",
        "webhook-timestamp": str(int(signed_at.timestamp())),
        "webhook-signature": LibraryHook(library(secret)).sign("d1", signed_at, body.decode()),
    }
    assert verify(secret, theirs, body)
    assert not verify(secret, theirs, body.replace(b"ann", b"bob"))


def test_several_secrets_sign_once_each_and_either_verifies_alone() -> None:
    body = b'{"id":"d1"}'
    keys = webhook_keys(RAW + b"\n" + WHSEC.encode() + b"\n")
    assert keys == (RAW, bytes(range(32)))
    headers = sign(keys, "d1", body, time.time())
    assert len(headers["webhook-signature"].split(" ")) == 2
    for secret in (RAW, WHSEC.encode()):
        assert verify(secret, headers, body)
    for alone in (RAW, WHSEC):
        assert LibraryHook(alone).verify(body, headers) == {"id": "d1"}
    with pytest.raises(WebhookVerificationError):
        LibraryHook(SECRET).verify(body, headers)


def test_the_verify_function_the_hosting_docs_quote_is_the_relays() -> None:
    text = DOCS.read_text()
    quoted = re.search(r"```python\n(.*?def verify.*?)```", text, re.S)
    assert quoted is not None, "docs/hosting.md quotes no verify function"
    scope: dict[str, Any] = {}
    exec(textwrap.dedent(quoted.group(1)), scope)  # the receiver's code as a host copies it
    body = b'{"id":"x","contact":"ann","turns":[]}'
    for secret in (RAW, WHSEC.encode(), WHSEC.rstrip("=").encode()):
        other = WHSEC.encode() if secret == RAW else RAW
        headers = sign([webhook_key(other), webhook_key(secret)], "x", body, time.time())
        assert scope["verify"](secret, headers, body)
        assert not scope["verify"](secret, headers, body.replace(b"ann", b"bob"))
        assert not scope["verify"](secret, {**headers, "webhook-id": "y"}, body)
        assert not scope["verify"](SECRET, headers, body)
        stale = sign([webhook_key(secret)], "x", body, time.time() - 400)
        assert not scope["verify"](secret, stale, body)
        signed_at = datetime.now(tz=UTC)
        theirs = {
            "Webhook-Id": "x",
            "Webhook-Timestamp": str(int(signed_at.timestamp())),
            "Webhook-Signature": LibraryHook(library(secret)).sign("x", signed_at, body.decode()),
        }
        assert scope["verify"](secret, theirs, body)


async def test_a_turn_is_delivered_signed_with_the_contact_as_given(
    store: Store, receiver: Receiver
) -> None:
    hook = await sender(receiver.url, store.hooks.state())
    try:
        hook(notice(contact="mailto:ann@example.org?x=1 2"))
        got = await settle(receiver, 1)
    finally:
        await hook.close()
    assert len(got) == 1 and got[0]["verified"]
    body = got[0]["body"]
    assert body["id"] == got[0]["id"] and re.fullmatch(r"[0-9a-f]{32}", body["id"])
    assert body["contact"] == "mailto:ann@example.org?x=1 2"
    assert body["turns"] == [
        {"match": "m1", "game": "chess", "seat": 0, "seq": 2, "due": 1_900_000_000.5}
    ]
    assert hook.counts == Counter(sent=1)


async def test_a_turn_is_delivered_once_however_many_processes_are_told(
    store: Store, receiver: Receiver
) -> None:
    state = store.hooks.state()
    hooks = [await sender(receiver.url, state) for _ in range(2)]
    try:
        for hook in hooks:
            hook(notice())
            hook(notice())
        hooks[1](notice(seq=4))
        got = await settle(receiver, 2)
    finally:
        for hook in hooks:
            await hook.close()
    assert sorted(d["body"]["turns"][0]["seq"] for d in got) == [2, 4]


async def test_turns_within_a_window_go_out_as_one_digest_when_it_ends(
    store: Store, receiver: Receiver
) -> None:
    state = store.hooks.state()
    hooks = [await sender(receiver.url, state, every=1.5) for _ in range(2)]
    try:
        hooks[0](notice("m1", seq=2))
        await receiver.wait_for(1, 5)
        started = time.time()
        hooks[0](notice("m2", seat=1, seq=3))
        hooks[1](notice("m1", seq=4))  # another process, a newer turn of match m1
        hooks[1](notice("m3", seq=2, contact="bob"))  # another contact: its own window
        got = await settle(receiver, 3, quiet=2.0)
    finally:
        for hook in hooks:
            await hook.close()
    by_contact: dict[str, list[dict[str, Any]]] = {}
    for delivery in got:
        assert delivery["verified"]
        by_contact.setdefault(delivery["body"]["contact"], []).append(delivery)
    assert [len(by_contact["ann"]), len(by_contact["bob"])] == [2, 1]
    first, digest = by_contact["ann"]
    assert [(t["match"], t["seq"]) for t in first["body"]["turns"]] == [("m1", 2)]
    turns = sorted((t["match"], t["seq"]) for t in digest["body"]["turns"])
    assert turns == [("m1", 4), ("m2", 3)]
    assert digest["at"] - started > 1.0, "the digest waited for the window's end"
    assert by_contact["bob"][0]["at"] - started < 1.0, "bob's first turn went at once"


async def test_a_newer_turn_of_the_same_match_and_seat_replaces_the_held_one(
    receiver: Receiver,
) -> None:
    hook = await sender(receiver.url, every=1.0)
    try:
        hook(notice("m9", seq=1))
        await receiver.wait_for(1, 5)
        for seq in (3, 5, 7):
            hook(notice("m1", seq=seq))
        got = await settle(receiver, 2, quiet=1.5)
    finally:
        await hook.close()
    assert [t["seq"] for t in got[1]["body"]["turns"]] == [7]


async def test_a_failing_receiver_is_retried_under_one_delivery_id(receiver: Receiver) -> None:
    receiver.statuses = [503, 429, 500]
    hook = await sender(receiver.url, pause=0.05)
    try:
        hook(notice())
        got = await settle(receiver, 4)
    finally:
        await hook.close()
    assert len(got) == 4 and len({d["id"] for d in got}) == 1
    assert all(d["verified"] for d in got)
    assert hook.counts == Counter(retried=3, sent=1)


async def test_a_refusal_is_not_retried(receiver: Receiver) -> None:
    receiver.statuses = [400]
    hook = await sender(receiver.url, pause=0.05)
    try:
        hook(notice())
        got = await settle(receiver, 1, quiet=0.5)
    finally:
        await hook.close()
    assert len(got) == 1 and hook.counts == Counter(failed=1)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_a_redirect_is_not_followed_nor_retried(receiver: Receiver, status: int) -> None:
    target = await Receiver(SECRET).start()
    try:
        receiver.statuses, receiver.location = [status], target.url
        hook = await sender(receiver.url, pause=0.05)
        try:
            hook(notice())
            got = await settle(receiver, 1, quiet=0.5)
        finally:
            await hook.close()
        assert target.got == [], "the redirect's target got a request"
    finally:
        await target.stop()
    assert len(got) == 1 and hook.counts == Counter(failed=1)


async def test_a_receiver_that_is_down_is_given_up_after_the_last_attempt() -> None:
    hook = await sender(f"http://127.0.0.1:{free_port()}/hook", pause=0.05, attempts=3)
    try:
        hook(notice())
        deadline = time.monotonic() + 10
        while hook.counts["failed"] == 0:
            assert time.monotonic() < deadline, hook.counts
            await asyncio.sleep(0.05)
    finally:
        await hook.close()
    assert hook.counts == Counter(retried=2, failed=1)


async def test_a_slow_receiver_holds_only_its_own_delivery(receiver: Receiver) -> None:
    receiver.delay = 3.0
    hook = await sender(receiver.url, senders=2, timeout=10)
    try:
        started = time.monotonic()
        for seq in range(2, 12):
            hook(notice(seq=seq))  # queued at once, whatever the receiver does
        assert time.monotonic() - started < 0.05
        await receiver.wait_for(2, 5)
        assert len(receiver.got) == 2, "two senders: two deliveries in flight"
    finally:
        await hook.close()


async def test_a_full_queue_drops_and_counts() -> None:
    hook = Webhook(
        HookSettings("http://127.0.0.1:9/hook", (SECRET,), queue=2), MemoryHookState(), Counter()
    )
    for seq in range(5):
        hook(notice(seq=seq))
    assert hook.counts == Counter(dropped=3)


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        (["--webhook", "http://h/hook"], {}, "needs a secret of at least 16 bytes"),
        (["--webhook", "http://h/hook"], {"MOVEWIRE_WEBHOOK_SECRET": "short"}, "at least 16"),
        (["--webhook", "ftp://h/hook"], {"MOVEWIRE_WEBHOOK_SECRET": "x" * 16}, "http:// or"),
        (["--webhook", "https:///hook"], {"MOVEWIRE_WEBHOOK_SECRET": "x" * 16}, "with a host"),
        (
            ["--webhook", "http://h/", "--webhook-secret-file", "/nonexistent/key"],
            {},
            "cannot read",
        ),
        (["--webhook-every", "-1"], {}, "must be >= 0 minutes"),
        (["--webhook", "http://h/"], {"MOVEWIRE_WEBHOOK_SECRET": "x" * 16 + " short"}, "16"),
        (["--webhook", "http://h/"], {"MOVEWIRE_WEBHOOK_SECRET": "whsec_" + "A" * 20}, "16"),
        (["--webhook", "http://h/"], {"MOVEWIRE_WEBHOOK_SECRET": "whsec_" + "*" * 24}, "base64"),
    ],
    ids=["none", "short", "ftp", "no host", "no file", "every", "one of two", "whsec", "b64"],
)
def test_a_webhook_badly_set_up_stops_the_relay_at_start(
    args: list[str],
    env: dict[str, str],
    says: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("MOVEWIRE_WEBHOOK_SECRET", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        parse_args(args)
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err


def test_a_webhook_secret_is_read_from_its_file_and_never_shown(tmp_path: Path) -> None:
    key = tmp_path / "hook.key"
    key.write_text("  0123456789abcdef0123  \n")
    config, _ = parse_args(["--webhook", "https://h/hook", "--webhook-secret-file", str(key),
                            "--webhook-every", "2.5"])  # fmt: skip
    assert config.webhook_keys == (b"0123456789abcdef0123",)
    assert config.webhook_every == 150.0
    assert "0123456789abcdef" not in repr(config)


def test_several_webhook_secrets_are_read_one_per_line_or_space_separated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unpadded = WHSEC.rstrip("=")
    key = tmp_path / "hook.key"
    key.write_text(f"{RAW.decode()}\n{unpadded}\n")
    monkeypatch.setenv("MOVEWIRE_WEBHOOK_SECRET", f" {WHSEC}  {RAW.decode()} ")
    from_file, _ = parse_args(["--webhook", "https://h/", "--webhook-secret-file", str(key)])
    from_env, _ = parse_args(["--webhook", "https://h/"])
    assert from_file.webhook_keys == (RAW, bytes(range(32)))
    assert from_env.webhook_keys == (bytes(range(32)), RAW)
    assert RAW.decode() not in repr(from_file) and "whsec_" not in repr(from_env)

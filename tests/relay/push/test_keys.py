"""The relay's VAPID key, the subscriptions it sends to and the notices' payloads: each
refused at once, with words that say why, before any push is made."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

from relay.push.keys import BAD_KEY, KEY_ENV, NO_KEY, VapidKey, b64url, load_key
from relay.push.messages import MAX_PAYLOAD, MAX_TTL, Kind, Notice, challenge, digest, turn
from relay.push.subscription import MAX_ENDPOINT, Subscription, SubscriptionError
from tests.support.push_service import PushService

SUBJECT = "mailto:host@example.org"


def pem(key: ec.EllipticCurvePrivateKey | ed25519.Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def test_a_pem_file_and_a_raw_key_in_the_environment_give_the_same_public_key(
    tmp_path: Path,
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / "vapid.pem"
    path.write_bytes(pem(key))
    raw = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    from_file = load_key(str(path), SUBJECT, environ={})
    from_env = load_key(None, SUBJECT, environ={KEY_ENV: raw + "\n"})
    assert from_file.public == from_env.public
    assert len(base64.urlsafe_b64decode(from_file.public + "=")) == 65
    assert "private" not in repr(from_file) and raw not in repr(from_file)


def test_push_without_a_key_is_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="MOVEWIRE_VAPID_KEY") as caught:
        load_key(None, SUBJECT, environ={})
    assert str(caught.value) == NO_KEY
    with pytest.raises(ValueError, match="cannot read --push-key-file"):
        load_key(str(tmp_path / "missing.pem"), SUBJECT, environ={})
    (tmp_path / "empty.pem").write_text("\n")
    with pytest.raises(ValueError, match="is empty"):
        load_key(str(tmp_path / "empty.pem"), SUBJECT, environ={})


NOT_P256: dict[str, Callable[[], bytes]] = {
    "p384": lambda: pem(ec.generate_private_key(ec.SECP384R1())),
    "ed25519": lambda: pem(ed25519.Ed25519PrivateKey.generate()),
    "bad pem": lambda: b"-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n",
    "31 bytes": lambda: b64url(b"\x01" * 31).encode(),
    "not base64url": lambda: b"not+base64url/",
    "not text": lambda: b"\xff\xfe",
}


@pytest.mark.parametrize("kind", NOT_P256)
def test_a_key_that_is_not_p256_is_refused_without_showing_it(kind: str) -> None:
    text = NOT_P256[kind]()
    with pytest.raises(ValueError) as caught:
        load_key(None, SUBJECT, environ={KEY_ENV: text.decode("latin-1")})
    assert str(caught.value) == BAD_KEY


@pytest.mark.parametrize("subject", ["", "host@example.org", "http://example.org", "mailto:x"])
def test_a_subject_push_services_cannot_use_is_refused(subject: str) -> None:
    with pytest.raises(ValueError, match="mailto: address or an https:// URL"):
        VapidKey.generate(subject)


def subscription(endpoint: str, p256dh: bytes | None = None, auth: bytes = b"a" * 16) -> object:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {"endpoint": endpoint, "keys": {"p256dh": b64url(p256dh or point), "auth": b64url(auth)}}


def test_a_browsers_subscription_is_read_and_written_back() -> None:
    given = subscription("https://fcm.googleapis.com/fcm/send/abc:def")
    sub = Subscription.from_json(given)
    assert sub.to_json() == given and sub.origin == "https://fcm.googleapis.com"
    assert Subscription.from_json(subscription("http://127.0.0.1:9/p"), loopback_http=True)


@pytest.mark.parametrize(
    ("endpoint", "words"),
    [
        ("http://push.example.net/p", "must be an https:// URL"),
        ("http://127.0.0.1:9/p", "must be an https:// URL"),
        ("https://127.0.0.1/p", "private or loopback"),
        ("https://10.1.2.3/p", "private or loopback"),
        ("https://[::1]/p", "private or loopback"),
        ("https://169.254.169.254/latest", "private or loopback"),
        ("https://localhost/p", "private or loopback"),
        ("https://user:pw@push.example.net/p", "no user, password"),
        ("https:///p", "must name a host"),
        ("https://push.example.net/p q", "plain ASCII"),
        ("https://push.example.net:99999/p", "not a URL"),
        ("https://push.example.net/" + "p" * MAX_ENDPOINT, "at most 1024"),
        ("ftp://push.example.net/p", "https://"),
    ],
)
def test_an_endpoint_the_relay_must_not_post_to_is_refused(endpoint: str, words: str) -> None:
    with pytest.raises(SubscriptionError, match=words):
        Subscription.from_json(subscription(endpoint))


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ([], "an object with endpoint and keys"),
        ({"endpoint": 1, "keys": {}}, "endpoint must be a URL string"),
        ({"endpoint": "https://push.example.net/p"}, "keys must be an object"),
        (subscription("https://p.example/p", p256dh=b"\x04" * 64), "p256dh must be 65 bytes"),
        (subscription("https://p.example/p", p256dh=b"\x04" + b"\x01" * 64), "not a point"),
        (subscription("https://p.example/p", auth=b"a" * 15), "auth must be 16 bytes, not 15"),
        ({"endpoint": "https://p.example/p", "keys": {"p256dh": "a+b/", "auth": "x"}}, "base64url"),
    ],
)
def test_malformed_keys_are_refused_by_name(value: object, words: str) -> None:
    with pytest.raises(SubscriptionError, match=words):
        Subscription.from_json(value)


async def test_the_test_push_services_subscriptions_are_well_formed() -> None:
    async with PushService() as service:
        browser = service.subscribe()
        assert Subscription.from_json(browser.subscription(), loopback_http=True)
        with pytest.raises(SubscriptionError, match="https://"):
            Subscription.from_json(browser.subscription())


def test_notices_are_small_and_open_pages_within_the_root_only() -> None:
    notice = turn("x" * 64, "m" * 64, 0, due=None, now=0)
    assert len(notice.payload()) < 600 and notice.ttl == 86400
    assert Notice.from_bytes(notice.to_bytes()) == notice
    assert len(notice.topic) == 32
    for url in ("https://evil.example/", "//evil.example/", "/v1/admin", "javascript:alert(1)"):
        with pytest.raises(ValueError, match="relative to the pages' root"):
            Notice(Kind.TURN, "m", "t", "b", url, 60)
    with pytest.raises(ValueError, match=f"at most {MAX_PAYLOAD} bytes"):
        Notice(Kind.TURN, "m", "t", "b" * MAX_PAYLOAD, "a.html", 60)
    assert Notice(Kind.TURN, "m", "t", "b", "a.html", 10**9).ttl == MAX_TTL
    assert Notice(Kind.TURN, "m", "t", "b", "a.html", -5).ttl == 0
    offer = challenge("xand0", "c1", "Ann", until=100, now=40)
    assert (offer.tag, offer.ttl, offer.url, offer.urgency) == (
        "challenge:c1",
        60,
        "index.html",
        "high",
    )
    assert digest([notice, offer]).payload().count(b"Your turn in 1 match, and 1 challenge.") == 1
    assert digest([offer, offer]).body == "2 challenges."

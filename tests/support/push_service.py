"""A Web Push service for tests, on 127.0.0.1: it takes pushes as a real one does (RFC 8030),
checks each one's VAPID signature (RFC 8292) and decrypts its body (RFC 8291) with the
subscription's private key, and records what it got.

`subscribe()` plays a browser subscribing: it makes an ECDH P-256 key pair and a 16-byte
authentication secret, and answers the PushSubscription's JSON (endpoint, p256dh, auth). The
checks are written here with `cryptography` alone, apart from the libraries the relay sends
with, so that a fault in those is caught: the JWT's ES256 signature with the `k=` public key
(and that key the one the subscription was made for, when given), `aud` this service's
origin, `exp` in the future and within 24 hours, `sub` a mailto: or https: contact; the
aes128gcm header, keys, records and padding. A push that fails a check is answered 400, 401
or 403 and kept in `refused` with why. `answer(endpoint, status)` makes an endpoint answer a
status from then on (404, 410, 500, ...), `delay` holds each answer that many seconds.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import secrets
import struct
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

__all__ = ["Browser", "Push", "PushService", "decrypt"]

TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")
URGENCY = {"very-low", "low", "normal", "high"}


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise ValueError("not base64url without padding")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(hashes.SHA256(), length, salt, info).derive(ikm)


@dataclass(frozen=True)
class Browser:
    """A subscribed browser: its private ECDH key and auth secret, and its subscription."""

    id: str
    endpoint: str
    private: ec.EllipticCurvePrivateKey = field(repr=False)
    auth: bytes = field(repr=False)
    server_key: str | None
    """The applicationServerKey it subscribed with (base64url), or None: any key."""

    def subscription(self) -> dict[str, Any]:
        """Returns the PushSubscription's JSON, as a page would send it."""
        p256dh = _b64(_point(self.private.public_key()))
        return {"endpoint": self.endpoint, "keys": {"p256dh": p256dh, "auth": _b64(self.auth)}}


@dataclass(frozen=True)
class Push:
    """A push taken: its endpoint's id, headers (names in lowercase), VAPID claims and
    decrypted payload."""

    id: str
    headers: dict[str, str]
    claims: dict[str, Any]
    payload: bytes

    def json(self) -> Any:
        """Returns the payload read as JSON."""
        return json.loads(self.payload)


def decrypt(body: bytes, private: ec.EllipticCurvePrivateKey, auth: bytes) -> bytes:
    """Returns an aes128gcm Web Push body's plaintext (RFC 8291, RFC 8188); raises ValueError
    saying what is wrong."""
    if len(body) < 21:
        raise ValueError("body shorter than the aes128gcm header")
    salt, rs, idlen = body[:16], struct.unpack("!L", body[16:20])[0], body[20]
    if idlen != 65 or rs < 18:
        raise ValueError(f"keyid of {idlen} bytes (65 expected), record size {rs}")
    sender = body[21:86]
    try:
        sender_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender)
    except ValueError:
        raise ValueError("keyid is not a P-256 point") from None
    shared = private.exchange(ec.ECDH(), sender_key)
    info = b"WebPush: info\x00" + _point(private.public_key()) + sender
    ikm = _hkdf(auth, shared, info, 32)
    cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    records = [body[86 + i : 86 + i + rs] for i in range(0, len(body) - 86, rs)]
    if not records:
        raise ValueError("no record")
    plain = b""
    for seq, record in enumerate(records):
        iv = (int.from_bytes(nonce, "big") ^ seq).to_bytes(12, "big")
        try:
            padded = AESGCM(cek).decrypt(iv, record, None)
        except InvalidTag:
            raise ValueError(f"record {seq} does not decrypt") from None
        data = padded.rstrip(b"\x00")
        last = seq == len(records) - 1
        if not data or data[-1] != (2 if last else 1):
            raise ValueError(f"record {seq} has a bad padding delimiter")
        plain += data[:-1]
    return plain


def verify_vapid(header: str, origin: str, now: float) -> tuple[dict[str, Any], str]:
    """Returns the claims and the public key (base64url) of a valid `vapid t=...,k=...`
    Authorization; raises ValueError saying what is wrong."""
    scheme, _, rest = header.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"scheme {scheme!r}, not vapid")
    params = dict(part.strip().split("=", 1) for part in rest.split(",") if "=" in part)
    token, key = params.get("t", ""), params.get("k", "")
    try:
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(key))
        head, claims_b64, signature = token.split(".")
        header_json, claims = json.loads(_unb64(head)), json.loads(_unb64(claims_b64))
        raw = _unb64(signature)
    except ValueError as exc:
        raise ValueError(f"malformed token or key: {exc}") from None
    if header_json.get("alg") != "ES256" or len(raw) != 64:
        raise ValueError(f"not an ES256 JWT: {header_json!r}, signature of {len(raw)} bytes")
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the JWT's signature does not verify with k") from None
    if claims.get("aud") != origin:
        raise ValueError(f"aud {claims.get('aud')!r}, not {origin!r}")
    exp = claims.get("exp")
    if not isinstance(exp, int) or not now < exp <= now + 86400:
        raise ValueError(f"exp {exp!r} not within the next 24 hours")
    if not re.fullmatch(r"mailto:\S+@\S+|https://\S+", str(claims.get("sub", ""))):
        raise ValueError(f"sub {claims.get('sub')!r} is no contact")
    return claims, key


class PushService:
    """The push service; `async with PushService() as service:` starts and stops it."""

    def __init__(self) -> None:
        self.browsers: dict[str, Browser] = {}
        self.pushes: list[Push] = []
        self.refused: list[tuple[str, int, str]] = []
        """Pushes refused: the endpoint's id, the status and why."""
        self.statuses: dict[str, int] = {}
        self.delay = 0.0
        self._runner: web.AppRunner | None = None
        self.origin = ""

    async def __aenter__(self) -> PushService:
        app = web.Application()
        app.router.add_post("/push/{id}", self._take)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.origin = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def subscribe(self, server_key: str | None = None) -> Browser:
        """Returns a new subscribed browser (server_key: the applicationServerKey the push
        service will require of its pushes)."""
        ident = secrets.token_urlsafe(12)
        browser = Browser(
            ident,
            f"{self.origin}/push/{ident}",
            ec.generate_private_key(ec.SECP256R1()),
            os.urandom(16),
            server_key,
        )
        self.browsers[ident] = browser
        return browser

    def answer(self, browser: Browser, status: int) -> None:
        """Makes the browser's endpoint answer status to every push from now on."""
        self.statuses[browser.id] = status

    def pushes_to(self, browser: Browser) -> list[Push]:
        """Returns the pushes the browser was sent, oldest first."""
        return [push for push in self.pushes if push.id == browser.id]

    async def _take(self, request: web.Request) -> web.Response:
        ident = request.match_info["id"]
        body = await request.read()
        if self.delay:
            await asyncio.sleep(self.delay)
        browser = self.browsers.get(ident)
        if browser is None:
            return self._refuse(ident, 404, "no such subscription")
        if ident in self.statuses:
            return web.Response(status=self.statuses[ident])
        headers = {name.lower(): value for name, value in request.headers.items()}
        try:
            claims, key = verify_vapid(headers.get("authorization", ""), self.origin, time.time())
        except ValueError as exc:
            return self._refuse(ident, 401, f"VAPID: {exc}")
        if browser.server_key is not None and key != browser.server_key:
            return self._refuse(ident, 403, "k is not the key the subscription was made for")
        why = _check_headers(headers)
        if why:
            return self._refuse(ident, 400, why)
        try:
            payload = decrypt(body, browser.private, browser.auth)
        except ValueError as exc:
            return self._refuse(ident, 400, f"aes128gcm: {exc}")
        self.pushes.append(Push(ident, headers, claims, payload))
        return web.Response(status=201, headers={"Location": f"/message/{len(self.pushes)}"})

    def _refuse(self, ident: str, status: int, why: str) -> web.Response:
        self.refused.append((ident, status, why))
        return web.Response(status=status, text=why)


def _check_headers(headers: dict[str, str]) -> str:
    """Returns why a push's headers are not RFC 8030's, or ''."""
    if headers.get("content-encoding") != "aes128gcm":
        return f"Content-Encoding {headers.get('content-encoding')!r}, not aes128gcm"
    if not headers.get("ttl", "").isdigit():
        return f"TTL {headers.get('ttl')!r} is not a number of seconds"
    if headers.get("urgency", "normal") not in URGENCY:
        return f"Urgency {headers.get('urgency')!r}"
    if "topic" in headers and not TOPIC.fullmatch(headers["topic"]):
        return f"Topic {headers['topic']!r} is not 1 to 32 base64url characters"
    return ""

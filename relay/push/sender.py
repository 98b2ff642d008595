"""The Web Push sender: encrypts a notice for one browser (RFC 8291, aes128gcm), signs the
request for its push service (RFC 8292, VAPID) and POSTs it (RFC 8030), with bounded retries.

Encrypting and signing take about 0.2 ms of CPU a message (docs/web-push.md measures them), so
they run on the event loop; only the POST waits, on aiohttp like every other request the relay
makes. Each attempt is bounded by a timeout, the attempts by a count, the pauses between them
by most_pause, and the POSTs in flight at once by senders. An outcome is one of three:
delivered (2xx), gone (404 or 410: the subscription is dead, the caller drops it) or failed
(anything else, after the retries a 429, a 5xx, a timeout or a lost connection get). A
redirect is never followed.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
import time
from collections import Counter
from dataclasses import dataclass

import aiohttp
import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives.asymmetric import ec

from relay.push.keys import VapidKey
from relay.push.messages import Notice
from relay.push.subscription import Subscription

__all__ = ["Outcome", "PushSender", "PushSettings", "Result"]

log = logging.getLogger("relay.push")

VAPID_FOR = 12 * 3600
"""Seconds a VAPID signature is valid (RFC 8292 allows 24 hours at most)."""

VAPID_RENEW = 3600
"""Seconds before its end a kept signature is made anew."""

VAPID_KEPT = 64
"""Push service origins whose signature is kept at most (all are forgotten past it)."""


class Outcome(enum.StrEnum):
    """How a push ended."""

    DELIVERED = "delivered"
    """The push service took the message (2xx)."""
    GONE = "gone"
    """The subscription is dead (404, 410): the caller drops it."""
    FAILED = "failed"
    """Not taken, after the retries it was worth: the caller may try again later."""


@dataclass(frozen=True, slots=True)
class Result:
    """A push's outcome, the push service's last status (None: no answer) and the attempts."""

    outcome: Outcome
    status: int | None
    attempts: int
    why: str = ""


@dataclass(frozen=True, slots=True)
class PushSettings:
    """How the sender sends; the defaults are the documented ones."""

    timeout: float = 10.0
    """Seconds an attempt may take, connecting included."""
    attempts: int = 3
    """Attempts a push gets while its push service fails (429, 5xx, timeout, connection)."""
    pause: float = 1.0
    """Seconds before the second attempt; each later pause doubles, up to most_pause."""
    most_pause: float = 30.0
    """The longest pause between attempts (a 429's Retry-After is kept within it)."""
    senders: int = 8
    """POSTs in flight at once."""

    def __post_init__(self) -> None:
        if self.timeout <= 0 or self.attempts < 1 or self.senders < 1:
            raise ValueError("push timeout must be > 0, attempts and senders >= 1")
        if self.pause < 0 or self.most_pause < self.pause:
            raise ValueError("push pauses must be >= 0, most_pause >= pause")


class PushSender:
    """Sends notices to subscriptions; use it as an async context manager (or start/close)."""

    def __init__(
        self,
        key: VapidKey,
        settings: PushSettings | None = None,
        counts: Counter[str] | None = None,
    ) -> None:
        """counts: the pushes by outcome (delivered, gone, failed) and retries (retried), as
        /metrics may export them."""
        self.key = key
        self.settings = settings or PushSettings()
        self.counts: Counter[str] = Counter() if counts is None else counts
        self._signed: dict[str, tuple[str, int]] = {}
        self._session: aiohttp.ClientSession | None = None
        self._slots = asyncio.Semaphore(self.settings.senders)

    async def start(self) -> None:
        """Opens the HTTP session."""
        self._session = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=self.settings.timeout),
            headers={"User-Agent": "movewire-relay"},
        )

    async def close(self) -> None:
        """Closes the HTTP session (a push in flight fails)."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def __aenter__(self) -> PushSender:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def authorization(self, audience: str, now: float) -> str:
        """Returns the VAPID Authorization for a push service's origin, signed anew once the
        kept one is within VAPID_RENEW of its end."""
        kept = self._signed.get(audience)
        if kept is not None and kept[1] - VAPID_RENEW > now:
            return kept[0]
        if len(self._signed) >= VAPID_KEPT:
            self._signed.clear()
        expires = int(now) + VAPID_FOR
        header = self.key.sign(audience, expires)
        self._signed[audience] = (header, expires)
        return header

    def request(self, subscription: Subscription, notice: Notice) -> tuple[bytes, dict[str, str]]:
        """Returns the body (the notice's payload encrypted for the browser, aes128gcm with a
        fresh ECDH key and salt) and the headers of the push."""
        body: bytes = http_ece.encrypt(
            notice.payload(),
            private_key=ec.generate_private_key(ec.SECP256R1()),
            dh=subscription.p256dh,
            auth_secret=subscription.auth,
            version="aes128gcm",
        )
        headers = {
            "Authorization": self.authorization(subscription.origin, time.time()),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(notice.ttl),
            "Urgency": notice.urgency,
            "Topic": notice.topic,
        }
        return body, headers

    async def send(self, subscription: Subscription, notice: Notice) -> Result:
        """Pushes a notice to one browser; returns how it went (never raises for the push
        service's faults)."""
        body, headers = self.request(subscription, notice)
        s = self.settings
        attempt = 0
        while True:
            attempt += 1
            outcome, status, wait, why = await self._attempt(subscription, body, headers)
            if outcome is not None:
                self.counts[outcome.value] += 1
                if outcome is Outcome.FAILED:
                    log.warning("push to %s failed: %s", subscription.origin, why)
                return Result(outcome, status, attempt, why)
            if attempt >= s.attempts:
                self.counts[Outcome.FAILED.value] += 1
                log.warning("push to %s given up after %d attempts: %s", subscription.origin,
                            attempt, why)  # fmt: skip
                return Result(Outcome.FAILED, status, attempt, why)
            self.counts["retried"] += 1
            pause = min(s.most_pause, s.pause * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0)
            await asyncio.sleep(min(s.most_pause, max(wait or 0.0, pause)))

    async def _attempt(
        self, subscription: Subscription, body: bytes, headers: dict[str, str]
    ) -> tuple[Outcome | None, int | None, float | None, str]:
        """Makes one POST; returns its outcome (None: worth another attempt), its status, a
        Retry-After's seconds and why it did not deliver."""
        if self._session is None:
            raise RuntimeError("the push sender is not started")
        try:
            async with (
                self._slots,
                self._session.post(
                    subscription.endpoint, data=body, headers=headers, allow_redirects=False
                ) as answer,
            ):
                status = answer.status
                if 200 <= status < 300:
                    return Outcome.DELIVERED, status, None, ""
                if status in (404, 410):
                    return Outcome.GONE, status, None, f"answered {status}"
                why = f"answered {status}"
                if status == 429 or status >= 500:
                    return None, status, _retry_after(answer.headers.get("Retry-After")), why
                return Outcome.FAILED, status, None, why
        except (aiohttp.ClientError, TimeoutError) as exc:
            return None, None, None, f"{type(exc).__name__}: {exc}"


def _retry_after(value: str | None) -> float | None:
    """Returns a Retry-After header's seconds (None for none, or a date)."""
    if value is not None and value.strip().isdigit():
        return float(value.strip())
    return None

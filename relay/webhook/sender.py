"""Your-turn webhooks: a signed POST to the host's receiver when a correspondence match gives
a player with a contact handle the turn.

The store tells the sender of each such turn (relay.core.turns); the sender only queues it, so a
receiver that is down or slow never slows a move. Behind the queue, each turn is claimed once
for the whole fleet (in the store's Hooks.state), then sent at once or, within the
contact's throttle window, held for the digest sent when the window ends. Each delivery is
retried with growing, jittered pauses while the receiver fails, under the same delivery id
(each attempt signed anew, at its own time). A redirect is never followed (it would re-send
the signed body wherever the receiver points): it fails the delivery, like a refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

from relay.core.turns import TurnNotice
from relay.store.hooks import HookState
from relay.webhook.sign import sign

__all__ = ["REDIRECTED", "HookSettings", "Webhook"]

log = logging.getLogger("relay.webhook")

REDIRECTED = (
    "webhook answered %s, a redirect, not followed: delivery %s not sent (a misconfigured "
    "receiver: give --webhook the URL that answers 2xx)"
)
"""The log line of a delivery answered with a 3xx: a failure, not retried."""


@dataclass(frozen=True, slots=True)
class HookSettings:
    """Where and how the sender delivers; the defaults are the documented ones."""

    url: str
    """The receiver: an http:// or https:// URL."""
    keys: tuple[bytes, ...] = field(repr=False)
    """The keys of the deliveries' HMAC-SHA256 signatures (relay.webhook.sign), one each."""
    every: float = 600.0
    """Seconds of each contact's throttle window: at most one delivery per window (0: none)."""
    timeout: float = 5.0
    """Seconds an attempt may take, connecting included."""
    attempts: int = 6
    """Attempts a delivery gets while the receiver fails (connection, timeout, 429, 5xx)."""
    pause: float = 1.0
    """Seconds before the second attempt; each later pause doubles, up to most_pause."""
    most_pause: float = 60.0
    """The longest pause between attempts (a 429's Retry-After is kept within it)."""
    queue: int = 10_000
    """Turns, and deliveries, waiting in this process at most; past it they are dropped."""
    senders: int = 4
    """Deliveries in flight at once."""


@dataclass(frozen=True, slots=True)
class _Delivery:
    id: str
    body: bytes
    attempt: int = 1


class Webhook:
    """Sends your-turn notices; a relay.turns.TurnSink (call it to queue a notice)."""

    def __init__(self, settings: HookSettings, state: HookState, counts: Counter[str]) -> None:
        """counts: the deliveries by outcome (sent, retried, failed, dropped), as
        /metrics exports them."""
        self.settings = settings
        self.state = state
        self.counts = counts
        self._turns: asyncio.Queue[TurnNotice] = asyncio.Queue(settings.queue)
        self._deliveries: asyncio.Queue[_Delivery] = asyncio.Queue(settings.queue)
        self._flushes: dict[str, asyncio.TimerHandle | asyncio.Task[None]] = {}
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._retry_keys = itertools.count()
        self._tasks: list[asyncio.Task[None]] = []
        self._session: aiohttp.ClientSession | None = None

    def __call__(self, notice: TurnNotice) -> None:
        """Queues a notice of a correspondence match's seat with a contact (others are Web
        Push's); drops it (counted) when the queue is full."""
        if not notice.contact or not notice.correspondence:
            return
        try:
            self._turns.put_nowait(notice)
        except asyncio.QueueFull:
            self.counts["dropped"] += 1

    async def start(self) -> None:
        """Starts the tasks that route notices and send deliveries."""
        self._session = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=self.settings.timeout),
            headers={"User-Agent": "movewire-relay"},
        )
        self._tasks = [asyncio.create_task(self._route_all())]
        self._tasks += [asyncio.create_task(self._send_all()) for _ in range(self.settings.senders)]

    async def close(self) -> None:
        """Stops sending (deliveries still queued or held are not sent by this process)."""
        for handle in [*self._flushes.values(), *self._retries.values()]:
            handle.cancel()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._session is not None:
            await self._session.close()

    # -- routing: claimed once, then sent now or held for the window's digest --------------

    async def _route_all(self) -> None:
        while True:
            notice = await self._turns.get()
            try:
                await self._route(notice)
            except Exception as exc:  # a Redis failure: this turn's notice is lost
                self.counts["dropped"] += 1
                log.warning("your-turn notice of %s dropped: %s", notice.match, exc)

    async def _route(self, notice: TurnNotice) -> None:
        if not await self.state.claim(f"{notice.match}:{notice.seat}:{notice.seq}"):
            return
        turn = orjson.dumps(
            {
                "match": notice.match,
                "game": notice.game,
                "seat": notice.seat,
                "seq": notice.seq,
                "due": notice.due,
            }
        )
        contact, every = notice.contact, self.settings.every
        if every <= 0:
            self._deliver(contact, [turn])
        elif await self.state.open_window(contact, every):
            self._deliver(contact, [*await self.state.take(contact), turn])
        else:
            await self.state.hold(contact, turn)
            self._flush_later(contact, await self.state.window_left(contact))

    def _flush_later(self, contact: str, delay: float) -> None:
        """Sends the contact's held turns once its window ends (one timer per contact)."""
        if contact not in self._flushes:
            loop = asyncio.get_running_loop()
            self._flushes[contact] = loop.call_later(delay + 0.05, self._flush_now, contact)

    def _flush_now(self, contact: str) -> None:
        self._flushes[contact] = asyncio.create_task(self._flush(contact))

    async def _flush(self, contact: str) -> None:
        try:
            held = await self.state.take(contact)
            if not held:
                return  # another process sent them
            if await self.state.open_window(contact, self.settings.every):
                self._deliver(contact, held)
                return
            # Another process opened a window meanwhile: its end sends these.
            await self.state.give_back(contact, held)
            left = await self.state.window_left(contact)
        except Exception as exc:
            log.warning("your-turn digest for a contact not sent: %s", exc)
            return
        finally:
            del self._flushes[contact]
        self._flush_later(contact, left)

    def _deliver(self, contact: str, turns: list[bytes]) -> None:
        """Queues one delivery of the turns, the newest of each match and seat only."""
        newest: dict[tuple[str, int], dict[str, Any]] = {}
        for raw in turns:
            turn = orjson.loads(raw)
            key = (turn["match"], turn["seat"])
            if key not in newest or newest[key]["seq"] < turn["seq"]:
                newest[key] = turn
        ident = uuid.uuid4().hex
        body = orjson.dumps({"id": ident, "contact": contact, "turns": list(newest.values())})
        self._queue(_Delivery(ident, body))

    def _queue(self, delivery: _Delivery) -> None:
        try:
            self._deliveries.put_nowait(delivery)
        except asyncio.QueueFull:
            self.counts["dropped"] += 1

    # -- sending ---------------------------------------------------------------------------

    async def _send_all(self) -> None:
        while True:
            delivery = await self._deliveries.get()
            await self._send(delivery)

    async def _send(self, delivery: _Delivery) -> None:
        assert self._session is not None
        s = self.settings
        headers = {
            "Content-Type": "application/json",
            **sign(s.keys, delivery.id, delivery.body, time.time()),
        }
        wait: float | None = None
        try:
            async with self._session.post(
                s.url, data=delivery.body, headers=headers, allow_redirects=False
            ) as answer:
                if answer.status < 300:
                    self.counts["sent"] += 1
                    return
                if answer.status < 400:
                    self.counts["failed"] += 1
                    log.warning(REDIRECTED, answer.status, delivery.id)
                    return
                if answer.status != 429 and answer.status < 500:
                    self.counts["failed"] += 1
                    log.warning("webhook %s refused delivery %s", answer.status, delivery.id)
                    return
                wait = _retry_after(answer.headers.get("Retry-After"))
                why = f"answered {answer.status}"
        except (aiohttp.ClientError, TimeoutError) as exc:
            why = f"{type(exc).__name__}: {exc}"
        if delivery.attempt >= s.attempts:
            self.counts["failed"] += 1
            log.warning("webhook delivery %s given up after %d attempts (%s)", delivery.id,
                        delivery.attempt, why)  # fmt: skip
            return
        self.counts["retried"] += 1
        pause = min(s.most_pause, s.pause * 2 ** (delivery.attempt - 1))
        pause = min(s.most_pause, max(wait or 0.0, pause * random.uniform(0.5, 1.0)))
        again = _Delivery(delivery.id, delivery.body, delivery.attempt + 1)
        key = next(self._retry_keys)
        self._retries[key] = asyncio.get_running_loop().call_later(pause, self._retry, key, again)

    def _retry(self, key: int, delivery: _Delivery) -> None:
        del self._retries[key]
        self._queue(delivery)


def _retry_after(value: str | None) -> float | None:
    """Returns a Retry-After header's seconds (None for none, or a date)."""
    if value is not None and value.strip().isdigit():
        return float(value.strip())
    return None

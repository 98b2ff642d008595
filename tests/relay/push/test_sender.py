"""The Web Push sender against a local push service on 127.0.0.1 that checks each push's
VAPID signature and decrypts its body as a browser would: delivered, gone (404, 410) or failed
(500 after bounded retries, a timeout, a redirect), and nothing sent twice per turn."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import AsyncIterator

import aiohttp
import pytest

from relay.push.keys import VapidKey
from relay.push.messages import Kind, clock_low, ended, turn
from relay.push.sender import Outcome, PushSender, PushSettings
from relay.push.subscription import Subscription
from tests.support.push_service import Browser, PushService

KEY = VapidKey.generate("mailto:host@example.org")
QUICK = PushSettings(timeout=0.5, attempts=3, pause=0.01, most_pause=0.05)


@pytest.fixture
async def service() -> AsyncIterator[PushService]:
    async with PushService() as service:
        yield service


@pytest.fixture
async def sender() -> AsyncIterator[PushSender]:
    async with PushSender(KEY, QUICK) as sender:
        yield sender


def subscription(browser: Browser) -> Subscription:
    return Subscription.from_json(browser.subscription(), loopback_http=True)


async def test_a_turn_is_encrypted_signed_and_delivered(
    service: PushService, sender: PushSender
) -> None:
    browser = service.subscribe(server_key=KEY.public)
    notice = turn("xand0", "m-1", 1, due=time.time() + 3 * 86400, now=time.time())
    result = await sender.send(subscription(browser), notice)
    assert (result.outcome, result.status, result.attempts) == (Outcome.DELIVERED, 201, 1)
    assert service.refused == []
    (push,) = service.pushes_to(browser)
    assert push.json() == {
        "kind": "turn",
        "match": "m-1",
        "title": "Your turn",
        "body": "xand0: your move. 3 days left.",
        "tag": "match:m-1",
        "url": "xand0.html#resume=m-1&seat=1",
    }
    assert push.claims["aud"] == service.origin and push.claims["sub"] == "mailto:host@example.org"
    assert time.time() + 11 * 3600 < push.claims["exp"] <= time.time() + 12 * 3600 + 1
    assert push.headers["urgency"] == "normal" and push.headers["topic"] == notice.topic
    assert 3 * 86400 - 5 < int(push.headers["ttl"]) <= 3 * 86400
    assert sender.counts == Counter(delivered=1)


async def test_each_kind_has_its_urgency_and_one_topic_per_match(
    service: PushService, sender: PushSender
) -> None:
    browser = service.subscribe(server_key=KEY.public)
    sub = subscription(browser)
    for notice in (clock_low("xand0", "m-2", 0, 30), ended("xand0", "m-2", "X won: a row.")):
        assert (await sender.send(sub, notice)).outcome is Outcome.DELIVERED
    low, over = service.pushes_to(browser)
    assert low.json()["kind"] == Kind.CLOCK_LOW and low.headers["urgency"] == "high"
    assert low.headers["ttl"] == "30"
    assert over.json()["url"] == "replay.html#match=m-2" and over.headers["urgency"] == "low"
    assert low.headers["topic"] == over.headers["topic"] != turn("g", "m-3", 0, None, 0).topic
    assert service.refused == []


async def test_a_push_signed_with_another_key_is_refused_by_the_service(
    service: PushService, sender: PushSender
) -> None:
    browser = service.subscribe(server_key=VapidKey.generate("mailto:a@example.org").public)
    result = await sender.send(subscription(browser), ended("xand0", "m", "Drawn."))
    assert (result.outcome, result.status) == (Outcome.FAILED, 403)
    assert service.refused[0][1:] == (403, "k is not the key the subscription was made for")


@pytest.mark.parametrize("status", [404, 410])
async def test_a_dead_subscription_is_gone_at_once(
    service: PushService, sender: PushSender, status: int
) -> None:
    browser = service.subscribe()
    service.answer(browser, status)
    result = await sender.send(subscription(browser), ended("xand0", "m", "Drawn."))
    assert (result.outcome, result.status, result.attempts) == (Outcome.GONE, status, 1)
    assert sender.counts == Counter(gone=1)


async def test_a_failing_service_is_retried_a_bounded_number_of_times(
    service: PushService, sender: PushSender
) -> None:
    browser = service.subscribe()
    service.answer(browser, 500)
    result = await sender.send(subscription(browser), ended("xand0", "m", "Drawn."))
    assert (result.outcome, result.status, result.attempts) == (Outcome.FAILED, 500, 3)
    assert sender.counts == Counter(failed=1, retried=2)


async def test_a_refusal_is_failed_without_a_retry(
    service: PushService, sender: PushSender
) -> None:
    browser = service.subscribe()
    for status in (301, 400, 413):
        service.answer(browser, status)
        result = await sender.send(subscription(browser), ended("xand0", "m", "Drawn."))
        assert (result.outcome, result.status, result.attempts) == (Outcome.FAILED, status, 1)


async def test_a_slow_service_fails_within_the_timeouts(service: PushService) -> None:
    browser = service.subscribe()
    service.delay = 0.6
    settings = PushSettings(timeout=0.2, attempts=2, pause=0.01, most_pause=0.01)
    async with PushSender(KEY, settings) as sender:
        began = time.monotonic()
        result = await sender.send(subscription(browser), ended("xand0", "m", "Drawn."))
    assert (result.outcome, result.status, result.attempts) == (Outcome.FAILED, None, 2)
    assert "Timeout" in result.why
    assert time.monotonic() - began < 1.0


async def test_a_closed_port_fails_after_the_retries(sender: PushSender) -> None:
    async with PushService() as gone:
        browser = gone.subscribe()
    result = await sender.send(subscription(browser), ended("xand0", "m", "Drawn."))
    assert (result.outcome, result.status, result.attempts) == (Outcome.FAILED, None, 3)


async def test_the_vapid_signature_is_kept_per_service_and_renewed(sender: PushSender) -> None:
    now = time.time()
    first = sender.authorization("https://push.example.net", now)
    assert sender.authorization("https://push.example.net", now + 3600) == first
    assert sender.authorization("https://push.example.net", now + 11.5 * 3600) != first
    assert sender.authorization("https://other.example.net", now) != first


async def test_pushes_in_flight_are_bounded(service: PushService) -> None:
    browser = service.subscribe()
    service.delay = 0.1
    settings = PushSettings(timeout=2, senders=2)
    async with PushSender(KEY, settings) as sender:
        began = time.monotonic()
        notices = [ended("xand0", f"m{n}", "Drawn.") for n in range(4)]
        results = await asyncio.gather(*(sender.send(subscription(browser), n) for n in notices))
    assert {r.outcome for r in results} == {Outcome.DELIVERED}
    assert time.monotonic() - began >= 0.2  # two rounds of two


async def test_the_service_refuses_a_tampered_body_and_a_wrong_audience(
    service: PushService, sender: PushSender
) -> None:
    # The checks themselves: a push service that took anything would prove nothing.
    browser = service.subscribe()
    body, headers = sender.request(subscription(browser), ended("xand0", "m", "Drawn."))
    foreign = {**headers, "Authorization": sender.authorization("https://elsewhere.example", 0)}
    async with aiohttp.ClientSession() as session:
        for data, sent in ((body[:-1] + bytes([body[-1] ^ 1]), headers), (body, foreign)):
            async with session.post(browser.endpoint, data=data, headers=sent) as answer:
                assert answer.status in (400, 401)
        async with session.post(browser.endpoint, data=body, headers=headers) as answer:
            assert answer.status == 201
    assert [why.split(":")[0] for _, _, why in service.refused] == ["aes128gcm", "VAPID"]
    assert "aud 'https://elsewhere.example'" in service.refused[1][2]

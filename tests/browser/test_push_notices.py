"""Web Push in real Chromium: the pages' service worker takes a push message delivered by the
DevTools protocol (ServiceWorker.deliverPushMessage, what a push service's message becomes once
Chromium has decrypted it), shows its notification with the notice's title, body and tag, and
on a click opens the match's page, or focuses a tab already on it, within the pages' root only.

Debian's full Chromium runs these (headless): its headless shell, which the other browser
tests use, has no notification platform (Notification.permission stays "denied" whatever is
granted). No protocol clicks a notification, so the click is dispatched in the worker (an
event a script made), and since only a real click allows a worker to open or focus a window,
the test records the window asked for instead (docs/web-push.md says what is simulated)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Playwright, Worker

from relay.push.messages import Notice, ended, turn
from tests.browser.conftest import CHROMIUM_FLAGS
from tests.support.components import require_binary
from tests.support.relay_process import RelayProcess

SPIES = """() => {
  self.opened = [];
  self.focused = [];
  Clients.prototype.openWindow = async function (url) { self.opened.push(url); return null; };
  WindowClient.prototype.focus = async function () { self.focused.push(this.url); return this; };
}"""
"""Records the windows the worker opens and focuses (only a real click may do either)."""

CLICK = """async (tag) => {
  const [notification] = await self.registration.getNotifications({ tag });
  self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
  for (let i = 0; i < 50 && !self.opened.length && !self.focused.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const left = (await self.registration.getNotifications({ tag })).length;
  return { opened: self.opened.splice(0), focused: self.focused.splice(0), left };
}"""
"""Clicks the notification of a tag; answers the windows opened and focused, and how many
notifications of the tag are left."""

SHOWN = """async () => (await self.registration.getNotifications()).map(
  (n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }))"""


@pytest.fixture(scope="module")
def full_chromium(playwright: Playwright) -> Iterator[Browser]:
    """Returns Debian's full Chromium, headless: it shows notifications."""
    path = require_binary("/usr/bin/chromium", "chromium")
    browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
    yield browser
    browser.close()


class Pages:
    """A context on the relay's pages, notifications allowed, its worker and its DevTools."""

    def __init__(self, context: BrowserContext, relay: RelayProcess) -> None:
        self.context = context
        self.relay = relay
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.cdp: CDPSession = context.new_cdp_session(self.page)
        self.registrations: list[dict[str, Any]] = []
        self.cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: self.registrations.extend(event["registrations"]),
        )
        self.cdp.send("ServiceWorker.enable")
        self.page.goto(f"{relay.url}/")
        self.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        self.worker: Worker = context.service_workers[0]
        self.worker.evaluate(SPIES)

    def push(self, notice: Notice | bytes) -> None:
        """Delivers a push message to the pages' worker, as Chromium does once decrypted."""
        data = notice if isinstance(notice, bytes) else notice.payload()
        (registration,) = {r["registrationId"] for r in self.registrations if not r["isDeleted"]}
        self.cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": f"{self.relay.url}/", "registrationId": registration, "data": data.decode()},
        )

    def shown(self, count: int) -> list[dict[str, str]]:
        """Waits for count notifications; returns them."""
        deadline = time.monotonic() + 5
        while True:
            shown: list[dict[str, str]] = self.worker.evaluate(SHOWN)
            if len(shown) >= count or time.monotonic() > deadline:
                return shown
            self.page.wait_for_timeout(50)


@pytest.fixture
def pages(full_chromium: Browser, relay: RelayProcess) -> Iterator[Pages]:
    context = full_chromium.new_context()
    context.grant_permissions(["notifications"], origin=relay.url)
    made = Pages(context, relay)
    yield made
    context.close()
    assert made.errors == []


def test_a_pushed_turn_is_shown_and_its_click_opens_the_match(
    pages: Pages, relay: RelayProcess
) -> None:
    pages.push(turn("xand0", "m-1", 1, due=time.time() + 86400, now=time.time()))
    (shown,) = pages.shown(1)
    page = f"{relay.url}/xand0.html#resume=m-1&seat=1"
    assert shown == {
        "title": "Your turn",
        "body": "xand0: your move. 24 hours left.",
        "tag": "match:m-1",
        "url": page,
    }
    # A newer notice of the match replaces the older: one notification per match.
    pages.push(turn("xand0", "m-1", 1, due=time.time() + 3600, now=time.time()))
    pages.push(ended("xand0", "m-2", "X won: three in a row."))
    shown_now = pages.shown(2)
    assert sorted(n["body"] for n in shown_now) == [
        "xand0: X won: three in a row.",
        "xand0: your move. 60 minutes left.",
    ]
    clicked = pages.worker.evaluate(CLICK, "match:m-1")
    assert clicked == {"opened": [page], "focused": [], "left": 0}
    pages.page.goto(page)  # the page asked for is the match's game page
    assert pages.page.title().startswith("X and 0")


def test_a_click_focuses_a_tab_already_on_the_page(pages: Pages, relay: RelayProcess) -> None:
    replay = f"{relay.url}/replay.html#match=m-2"
    pages.page.goto(replay)
    pages.push(ended("xand0", "m-2", "Drawn."))
    pages.shown(1)
    clicked = pages.worker.evaluate(CLICK, "match:m-2")
    assert clicked == {"opened": [], "focused": [replay], "left": 0}


def test_a_notice_never_opens_a_page_outside_the_pages(pages: Pages, relay: RelayProcess) -> None:
    root = f"{relay.url}/"
    for url in ("https://evil.example/", "//evil.example/x", "v1/admin/bans", "javascript:1"):
        raw = f'{{"title": "t", "body": "b", "tag": "match:{url}", "url": "{url}"}}'
        pages.push(raw.encode())
    pages.push(b"not json")
    shown = pages.shown(5)
    assert len(shown) == 5 and {n["url"] for n in shown} == {root}
    assert {n["title"] for n in shown} == {"t", "movewire"}
    clicked = pages.worker.evaluate(CLICK, "match:https://evil.example/")
    assert clicked == {"opened": [], "focused": [root], "left": 0}  # the lobby's tab

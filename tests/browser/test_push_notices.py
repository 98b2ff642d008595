"""Web Push in real Chromium: the pages' service worker takes a push message delivered by the
DevTools protocol (ServiceWorker.deliverPushMessage, what a push service's message becomes once
Chromium has decrypted it), asks for its notification with the notice's title, body and tag,
and on a click opens the match's page, or focuses a tab already on it, within the pages' root
only.

The headless shell the browser tests use has no notification platform: the notification the
worker asks for (showNotification) is recorded, not shown, and the browser's own part (one
notification per tag, a newer replacing an older) is left to the browser. No protocol clicks
a notification, so the click is dispatched in the worker (an event a script made, carrying
the recorded notification's data), and since only a real click allows a worker to open or
focus a window, the test records the window asked for instead (docs/web-push.md says what is
simulated)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext

from relay.push.messages import ended, turn
from tests.browser.worker_spy import WorkerSpy
from tests.support.relay_process import RelayProcess


class Pages(WorkerSpy):
    """A new context's page on the relay's lobby, its worker in control and recording."""

    def __init__(self, context: BrowserContext, relay: RelayProcess) -> None:
        page = context.new_page()
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        super().__init__(context, page, f"{relay.url}/")


@pytest.fixture
def pages(browser: Browser, relay: RelayProcess) -> Iterator[Pages]:
    """Returns a context on the relay's lobby, its worker in control and recording."""
    context = browser.new_context()
    made = Pages(context, relay)
    yield made
    context.close()
    assert made.errors == []


def test_a_pushed_turn_is_shown_and_its_click_opens_the_match(
    pages: Pages, relay: RelayProcess
) -> None:
    pages.push(turn("xand0", "m-1", 1, due=time.time() + 86400, now=time.time()).payload())
    (shown,) = pages.shown(1)
    page = f"{relay.url}/xand0.html#resume=m-1&seat=1"
    assert shown == {
        "title": "Your turn",
        "body": "xand0: your move. 24 hours left.",
        "tag": "match:m-1",
        "url": page,
    }
    # A newer notice of the match has the match's tag: the browser shows it in the older's
    # place, one notification per match.
    pages.push(turn("xand0", "m-1", 1, due=time.time() + 3600, now=time.time()).payload())
    pages.push(ended("xand0", "m-2", "X won: three in a row.").payload())
    shown_now = pages.shown(3)[1:]
    assert [(n["tag"], n["body"]) for n in shown_now] == [
        ("match:m-1", "xand0: your move. 60 minutes left."),
        ("match:m-2", "xand0: X won: three in a row."),
    ]
    clicked = pages.click("match:m-1")
    assert clicked == {"opened": [page], "focused": [], "closed": ["match:m-1"]}
    pages.page.goto(page)  # the page asked for is the match's game page
    assert pages.page.title().startswith("X and 0")


def test_a_click_focuses_a_tab_already_on_the_page(pages: Pages, relay: RelayProcess) -> None:
    replay = f"{relay.url}/replay.html#match=m-2"
    pages.page.goto(replay)
    pages.push(ended("xand0", "m-2", "Drawn.").payload())
    pages.shown(1)
    clicked = pages.click("match:m-2")
    assert clicked == {"opened": [], "focused": [replay], "closed": ["match:m-2"]}


def test_a_notice_never_opens_a_page_outside_the_pages(pages: Pages, relay: RelayProcess) -> None:
    root = f"{relay.url}/"
    for url in ("https://evil.example/", "//evil.example/x", "v1/admin/bans", "javascript:1"):
        raw = f'{{"title": "t", "body": "b", "tag": "match:{url}", "url": "{url}"}}'
        pages.push(raw.encode())
    pages.push(b"not json")
    shown = pages.shown(5)
    assert len(shown) == 5 and {n["url"] for n in shown} == {root}
    assert {n["title"] for n in shown} == {"t", "movewire"}
    clicked = pages.click("match:https://evil.example/")
    assert clicked == {"opened": [], "focused": [root], "closed": ["match:https://evil.example/"]}

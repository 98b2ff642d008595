"""The lobby in real Chromium, on a relay with open seeks, live and finished matches: a desktop
sets its game cards side by side, a phone stacks them, in light and dark; nothing moves as the
lobby loads (CLS under 0.1); and every page the relay serves has a meta description.

Chromium runs here with its scrollbars shown, as on a desktop: a scrollbar that comes as the
page grows is a layout shift of its own (the old lobby's 0.41)."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    Route,
    expect,
)

from bench.lighthouse import busy_lobby
from relay.games import installed_games
from relay.http.pages import load_pages
from tests.browser.conftest import ARTIFACTS, CHROMIUM_FLAGS, WAIT_MS
from tests.browser.players import PHONE, Viewport
from tests.support.relay_process import RelayProcess, quick_flags

LAPTOP = Viewport(1280, 800)
"""A laptop screen's window."""

OLD_HEIGHT = 2223
"""How tall the old lobby was at a desktop's size: a 550 px column of cards (issue #32)."""

GAMES = ("connect4", "dots", "xand0")

CLS_LIMIT = 0.1
"""Google's bound of a good cumulative layout shift."""

SETTLE_S = 1.5
"""How long the shifts are still counted once every card has read its lists."""

API_DELAY_S = 0.15
"""How late GET /v1/games answers, as over a network: the page is painted before the cards."""

OBSERVE_SHIFTS = """{
  window.layoutShift = { total: 0, shifts: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.layoutShift.total += entry.value;
      window.layoutShift.shifts.push({ value: entry.value, at: Math.round(entry.startTime),
        nodes: entry.sources.map((s) => s.node?.nodeName + (s.node?.id ? "#" + s.node.id : "")) });
    }
  }).observe({ type: "layout-shift", buffered: true });
}"""
"""Sums the layout shifts not caused by input (CLS over the load), as Lighthouse counts them."""


@pytest.fixture(scope="module")
def browser(playwright: Playwright, chromium: str) -> Iterator[Browser]:
    """Returns one headless Chromium for the module, showing its scrollbars as a desktop does
    (Playwright hides them by default)."""
    expect.set_options(timeout=WAIT_MS)
    shown = playwright.chromium.launch(
        executable_path=chromium,
        headless=True,
        args=CHROMIUM_FLAGS,
        ignore_default_args=["--hide-scrollbars"],
    )
    yield shown
    shown.close()


@pytest.fixture(scope="module")
def busy() -> Iterator[RelayProcess]:
    """Returns a relay whose lobby has, for each game, an open seek, two live matches and a
    finished one; its seekers and seats stay while the module runs, polling or not."""
    with RelayProcess(*quick_flags(grace=120), "--seek-grace", "120") as relay:
        busy_lobby(relay.url)
        yield relay


class Visitor:
    """A fresh browser (its own context) on the busy relay's pages; its page errors fail it."""

    def __init__(self, browser: Browser, relay: RelayProcess, size: Viewport, dark: bool) -> None:
        self.context: BrowserContext = browser.new_context(
            base_url=relay.url,
            viewport={"width": size.width, "height": size.height},
            is_mobile=size.mobile,
            has_touch=size.mobile,
            device_scale_factor=size.scale,
            color_scheme="dark" if dark else "light",
        )
        self.context.set_default_timeout(WAIT_MS)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        self.page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        """Keeps an error the page's console shows."""
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def open_lobby(self) -> None:
        """Opens the lobby, counting its layout shifts from the start, its game list answered
        late; returns once every card shows with its lists read."""
        self.page.add_init_script(OBSERVE_SHIFTS)

        def late(route: Route) -> None:
            time.sleep(API_DELAY_S)
            route.continue_()

        self.page.route("**/v1/games", late)
        self.page.goto("/")
        expect(self.page.locator("#games")).to_have_attribute("data-state", "listed")
        for game in GAMES:
            box = self.page.locator(f"[data-lobby='{game}']")
            expect(box).to_have_attribute("data-version", re.compile("."))
            expect(box.locator(".live-list li")).to_have_count(2)

    def shot(self, name: str) -> None:
        """Saves a screenshot of the whole page as a test artefact."""
        folder = ARTIFACTS / "lobby-layout"
        folder.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

    def close(self) -> None:
        """Closes the context; fails on an error the page raised or logged."""
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def visitor(browser: Browser, busy: RelayProcess) -> Iterator[list[Visitor]]:
    """Returns the list the test adds its visitors to; each is closed and checked after it."""
    made: list[Visitor] = []
    yield made
    for each in made:
        each.close()


def card_boxes(page: Page) -> list[dict[str, float]]:
    """Returns the box of each game card on the page, in the lobby's order."""
    boxes: list[dict[str, float]] = page.locator("#games > li.card").evaluate_all(
        """cards => cards.map((card) => {
             const r = card.getBoundingClientRect();
             return { x: r.x, y: r.y + scrollY, width: r.width, height: r.height };
           })"""
    )
    assert len(boxes) == len(GAMES), boxes
    return boxes


def page_height(page: Page) -> int:
    """Returns the height of the whole page, in CSS pixels."""
    return int(page.evaluate("() => document.documentElement.scrollHeight"))


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_desktop_lobby_sets_its_game_cards_side_by_side(
    browser: Browser, busy: RelayProcess, visitor: list[Visitor], dark: bool
) -> None:
    side = Visitor(browser, busy, LAPTOP, dark)
    visitor.append(side)
    side.open_lobby()
    cards = card_boxes(side.page)
    # One row of three cards, left to right, together most of the window's width.
    assert len({round(card["y"]) for card in cards}) == 1, cards
    assert all(a["x"] + a["width"] <= b["x"] for a, b in itertools.pairwise(cards)), cards
    spread = cards[-1]["x"] + cards[-1]["width"] - cards[0]["x"]
    assert spread >= 0.75 * LAPTOP.width, cards
    assert all(card["width"] >= 300 for card in cards), cards
    height = page_height(side.page)
    assert height <= 0.7 * OLD_HEIGHT, height
    assert side.page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    side.shot(f"laptop-{'dark' if dark else 'light'}")


def test_a_phone_lobby_stacks_its_cards_within_its_width(
    browser: Browser, busy: RelayProcess, visitor: list[Visitor]
) -> None:
    side = Visitor(browser, busy, PHONE, dark=False)
    visitor.append(side)
    side.open_lobby()
    cards = card_boxes(side.page)
    assert all(a["y"] + a["height"] <= b["y"] for a, b in itertools.pairwise(cards)), cards
    assert all(card["x"] >= 0 and card["x"] + card["width"] <= PHONE.width for card in cards)
    assert side.page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    side.shot("phone")


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_nothing_moves_as_the_lobby_loads(
    browser: Browser, busy: RelayProcess, visitor: list[Visitor], size: Viewport
) -> None:
    side = Visitor(browser, busy, size, dark=False)
    visitor.append(side)
    side.open_lobby()
    side.page.wait_for_timeout(SETTLE_S * 1000)
    shifted = side.page.evaluate("() => window.layoutShift")
    assert shifted["total"] < CLS_LIMIT, shifted


def served_pages() -> list[str]:
    """Returns the URL path of every HTML page the relay serves: its own and its games'."""
    found = {path for path in load_pages(warn=False) if path.endswith(".html")}
    for game in installed_games():
        found |= {path for path in load_pages(game.pages, warn=False) if path.endswith(".html")}
    return sorted(found)


def test_every_page_the_relay_serves_has_a_meta_description(
    browser: Browser, busy: RelayProcess, visitor: list[Visitor]
) -> None:
    side = Visitor(browser, busy, LAPTOP, dark=False)
    visitor.append(side)
    pages = served_pages()
    assert {"/index.html", "/replay.html", "/xand0.html", "/connect4.html"} <= set(pages)
    for path in pages:
        side.page.goto(path)
        described = side.page.locator("head meta[name='description']")
        expect(described).to_have_count(1)
        words = (described.get_attribute("content") or "").strip()
        assert len(words) >= 50, f"{path}: {words!r}"

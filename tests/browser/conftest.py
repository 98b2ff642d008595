"""Fixtures of the browser tests: Debian's Chromium driven by Playwright, a real relay, players."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest

from tests.support.components import in_ci, require_binary
from tests.support.relay_process import RelayProcess, quick_flags

try:
    from playwright.sync_api import Browser, Playwright, expect, sync_playwright
except ImportError as exc:  # pragma: no cover - depends on the environment
    if in_ci():
        raise
    pytest.skip(f"the playwright package is missing ({exc})", allow_module_level=True)

from tests.browser.players import DESKTOP, Player, Viewport

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
"""Where screenshots go (gitignored)."""

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""What Chromium needs here: root, no GPU, a closed network (Playwright adds --headless)."""

WAIT_MS = 10_000
"""The longest any single expectation waits: a hang fails by name, not by the test timeout."""

MakePlayer = Callable[..., Player]


@pytest.fixture(scope="session")
def chromium() -> str:
    """Returns the path of Debian's headless Chromium (chromium-headless-shell: the same Blink
    and V8 as the browser, without its windowing), installing it when missing (never a
    download). The browser tests ran in 255 s with it and 363 s with the full browser
    (docs/performance.md, "The test suite's own time")."""
    return require_binary("/usr/bin/chromium-headless-shell", "chromium-headless-shell")


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Returns a running Playwright driver, stopped after the module.

    Sync Playwright marks an event loop as running while it lives: it must be gone before
    another module's asyncio tests start."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright, chromium: str) -> Iterator[Browser]:
    """Returns one headless Chromium for the module; each player gets its own context."""
    expect.set_options(timeout=WAIT_MS)
    browser = playwright.chromium.launch(
        executable_path=chromium, headless=True, args=CHROMIUM_FLAGS
    )
    yield browser
    browser.close()


class PrefixedRelay(RelayProcess):
    """A relay answering under a path prefix (`--prefix`), health-checked there."""

    def __init__(self, prefix: str, *args: str) -> None:
        super().__init__(*args, "--prefix", prefix)
        self.prefix = prefix

    @property
    def url(self) -> str:
        """Returns the relay's URL, prefix included."""
        return f"http://127.0.0.1:{self.port}{self.prefix}"


@pytest.fixture
def relay(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """Returns a fresh relay serving the pages, with a short hold (matches meet nobody else).

    Parametrize it indirectly with a path prefix to serve everything under it. It rates every
    game's trusted results (--rate-unrefereed), as the ratings pages' tests need."""
    args = (*quick_flags(), "--rate-unrefereed")
    prefix: str | None = getattr(request, "param", None)
    process = RelayProcess(*args) if prefix is None else PrefixedRelay(prefix, *args)
    with process:
        yield process


@pytest.fixture
def player(
    browser: Browser, relay: RelayProcess, request: pytest.FixtureRequest
) -> Iterator[MakePlayer]:
    """Returns a factory of players, each a browser context of its own (its own tab storage).

    The pages' service worker is blocked unless a player is made with workers=True: the tests
    of what it does ask for it (test_installable.py), and a lobby opened elsewhere would only
    have it copy every page file as it installs, about 0.3 s of CPU a test."""
    players: list[Player] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def make(name: str, viewport: Viewport = DESKTOP, *, workers: bool = False) -> Player:
        context = browser.new_context(
            service_workers="allow" if workers else "block",
            base_url=relay.url,
            viewport={"width": viewport.width, "height": viewport.height},
            is_mobile=viewport.mobile,
            has_touch=viewport.mobile,
            device_scale_factor=viewport.scale,
        )
        context.set_default_timeout(WAIT_MS)
        made = Player(context.new_page(), name, ARTIFACTS / request.node.name)
        players.append(made)
        return made

    yield make
    failed = request.node.stash.get(FAILED, False)
    for made in players:
        if failed and not made.page.is_closed():  # a test may close a page (a tab left)
            made.shot("at-failure")
        made.page.context.close()
    errors = [f"{made.name}: {error}" for made in players for error in made.errors]
    assert not errors, "the pages raised errors:\n" + "\n".join(errors)


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Remembers a failed test so that its players leave a screenshot of the moment."""
    report = yield
    if call.when == "call" and report.failed:
        item.stash[FAILED] = True
    return report

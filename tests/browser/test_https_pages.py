"""The pages over HTTPS through the shipped nginx site: Chromium, trusting the tests' CA (in
the certificate store of a home folder of its own), loads them over HTTP/2 and two players
play X and 0 to a win."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, expect

from tests.browser.conftest import ARTIFACTS, CHROMIUM_FLAGS, WAIT_MS
from tests.browser.players import DESKTOP, Player
from tests.browser.seating import play_to_a_win
from tests.hosting.stack import nginx_stack
from tests.support.components import require_binary
from tests.support.tls import authority


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """Returns the HTTPS base URL of nginx with the shipped site, before two relay workers."""
    with nginx_stack() as (_, nginx):
        yield nginx.https_url


@pytest.fixture(scope="module")
def trusting(playwright: Playwright, chromium: str) -> Iterator[Browser]:
    """Returns a Chromium whose certificate store (NSS, in a home folder of its own) trusts
    the tests' CA, and nothing more than a new install does."""
    certutil = require_binary("certutil", "libnss3-tools")
    home = Path(tempfile.mkdtemp(prefix="movewire-home-"))
    store = home / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run(
        [certutil, "-d", f"sql:{store}", "-N", "--empty-password"],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    subprocess.run(
        [certutil, "-d", f"sql:{store}", "-A", "-t", "C,,", "-n", "movewire-test-ca",
         "-i", str(authority().ca)],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    expect.set_options(timeout=WAIT_MS)
    browser = playwright.chromium.launch(
        executable_path=chromium,
        headless=True,
        args=CHROMIUM_FLAGS,
        env={**os.environ, "HOME": str(home)},
    )
    yield browser
    browser.close()
    shutil.rmtree(home, ignore_errors=True)


def _player(browser: Browser, site: str, name: str) -> Player:
    context = browser.new_context(
        base_url=site, viewport={"width": DESKTOP.width, "height": DESKTOP.height}
    )
    context.set_default_timeout(WAIT_MS)
    return Player(context.new_page(), name, ARTIFACTS / "test_https_pages")


def test_two_players_play_xand0_over_https_and_http2(trusting: Browser, site: str) -> None:
    a, b = _player(trusting, site, "a"), _player(trusting, site, "b")
    try:
        a.open("/xand0.html#play")
        a.expect_status("Waiting for an opponent...")
        protocol = a.page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol")
        assert protocol == "h2", protocol
        assert a.page.url.startswith("https://")
        b.open("/xand0.html#play")
        x, o = (a, b) if a.is_first() else (b, a)
        play_to_a_win(x, o)
        x.shot("https-won")
        assert not a.errors and not b.errors, (a.errors, b.errors)
        expect(x.page.locator("#you")).to_have_text(re.compile("You play X"))
    finally:
        for side in (a, b):
            side.page.context.close()

"""The browser page of a new game's skeleton (`python -m sdk.new`), in Chromium, against the
skeleton's bot, through a real relay that serves the page (`--pages-dir`)."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from sdk.new import write
from tests.browser.conftest import WAIT_MS
from tests.support.relay_process import ROOT, RelayProcess, quick_flags

RESULT = re.compile(r"^(You win!|You lose\.)$")


@pytest.fixture
def skeleton(tmp_path: Path) -> Path:
    """Returns the folder of a freshly written skeleton of the game 'stones'."""
    write("stones", tmp_path, "Stones")
    return tmp_path


@pytest.fixture
def relay(skeleton: Path) -> Iterator[RelayProcess]:
    """Returns a relay serving the skeleton's page beside the JavaScript host."""
    with RelayProcess(*quick_flags(), "--pages-dir", str(skeleton / "stones" / "page")) as process:
        yield process


@pytest.mark.timeout(90)
def test_the_skeleton_page_plays_the_skeleton_bot_to_the_end(
    browser: Browser, relay: RelayProcess, skeleton: Path
) -> None:
    room = "page-" + secrets.token_hex(6)
    bot = subprocess.Popen(
        [sys.executable, "-m", "stones", "--relay", relay.url, "--room", room, "--bot"],
        cwd=skeleton,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    context = browser.new_context(base_url=relay.url)
    context.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    missing: list[str] = []  # every file the page asks for is there (its icon too)
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", lambda answer: None if answer.ok else missing.append(answer.url))
        page.goto(f"/stones.html#room={room}")
        # Its icon is one the relay serves (a browser asks /favicon.ico, a 404, without one).
        icon = page.locator("link[rel=icon]").get_attribute("href")
        assert icon is not None and context.request.get(icon).ok, icon
        status = page.locator("#status")
        for _ in range(21):
            expect(status).to_have_text(re.compile(r"^(Your move.*|You win!|You lose\.)$"))
            if RESULT.match(status.inner_text()):
                break
            page.locator("[data-take]:enabled").first.click()
        expect(status).to_have_text(RESULT)
        expect(page.locator("#pile")).to_have_text("0 stones left.")
        verdict = status.inner_text()
        out, err = bot.communicate(timeout=20)
    finally:
        context.close()
        bot.kill()
    assert bot.returncode == 0, err
    bots = "lost" if verdict == "You win!" else "won"
    assert out.strip() == f"Stones: {bots} (agreed)"
    assert not errors, errors
    assert not missing, missing

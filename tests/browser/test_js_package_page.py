"""A game page built with Vite on the packed `movewire` package, type-checked against the
package's declarations, served by a real relay (`--pages-dir`) and played to the end by two
Chromium pages."""

from __future__ import annotations

import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import WAIT_MS
from tests.support.components import in_ci, require_binary
from tests.support.js_package import ToolError, npm, pack, run_tool, stage, tools
from tests.support.relay_process import RelayProcess, quick_flags

GAME = Path(__file__).resolve().parent / "js_package_game"
"""The game's sources: count.html, count.ts (TypeScript), tsconfig.json, vite.config.js."""

PLAY_SECONDS = 30
"""The longest the ten numbers may take, both pages together."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Returns the game's built page folder (Vite's dist/), after tsc checked its TypeScript
    against the types of the package as packed (`npm pack`) and installed from the tarball."""
    require_binary("node", "nodejs")
    require_binary("npm", "npm")
    work = tmp_path_factory.mktemp("vite-game")
    try:
        tools()
        tarball = pack(stage(work), work / "packed")
        project = work / "game"
        shutil.copytree(GAME, project)
        npm("install", "--no-package-lock", "--offline", str(tarball), cwd=project)
        run_tool("tsc", "-p", "tsconfig.json", cwd=project)  # the game's types, strict
        run_tool("vite", "build", "--logLevel", "warn", cwd=project)
    except ToolError as error:
        if in_ci():
            pytest.fail(str(error))
        pytest.skip(f"the package's tools are missing: {error}")
    return project / "dist"


@pytest.fixture
def relay(built: Path) -> Iterator[RelayProcess]:
    """Returns a relay that serves the built page beside its own."""
    with RelayProcess(*quick_flags(), "--pages-dir", str(built)) as process:
        yield process


def test_the_built_page_imports_the_package_bundled_not_the_relays_host(built: Path) -> None:
    page = (built / "count.html").read_text()
    assert 'src="./assets/count-' in page
    assert 'rel="stylesheet"' in page  # the package's style.css, bundled too
    (bundle,) = (built / "assets").glob("count-*.js")
    assert "movewire.mjs" not in bundle.read_text()  # bundled by Vite, not fetched from the relay


def test_a_page_built_with_vite_on_the_package_plays_a_match_to_the_end(
    browser: Browser, relay: RelayProcess
) -> None:
    room = f"vite-{uuid.uuid4().hex[:10]}"
    pages: list[Page] = []
    errors: list[str] = []
    for _ in range(2):
        context = browser.new_context(base_url=relay.url)
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"/count.html#room={room}")
        pages.append(page)
    try:
        said = 0
        deadline = time.monotonic() + PLAY_SECONDS
        while said < 10:
            assert time.monotonic() < deadline, f"the match stalled after {said} numbers"
            for page in pages:
                button = page.locator("#say")
                if button.is_enabled():
                    expect(button).to_have_text(f"Say {said + 1}")
                    button.click()
                    said += 1
                    break
            else:
                time.sleep(0.05)
        for page in pages:
            expect(page.locator("body")).to_have_attribute("data-reason", "agreed")
        results = sorted(page.locator("body").get_attribute("data-result") or "" for page in pages)
        assert results == ["lost", "won"]
        assert errors == []
    finally:
        for page in pages:
            page.context.close()

"""A player of the browser tests: one browser context on a game page, with readable steps."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import ConsoleMessage, Locator, Page, expect

__all__ = ["DESKTOP", "PHONE", "Player", "Viewport"]


@dataclass(frozen=True, slots=True)
class Viewport:
    """A screen to play on."""

    width: int
    height: int
    mobile: bool = False
    scale: float = 1


DESKTOP = Viewport(1024, 768)
"""A laptop window."""

PHONE = Viewport(390, 844, mobile=True, scale=2)
"""A phone held upright (an iPhone 12's CSS pixels), with touch."""

ARROWS = {(1, 0): "ArrowRight", (-1, 0): "ArrowLeft", (0, 1): "ArrowDown", (0, -1): "ArrowUp"}


class Player:
    """One side: a page in its own browser context, so its sessionStorage is its own."""

    def __init__(self, page: Page, name: str, shots: Path) -> None:
        self.page = page
        self.name = name
        self.shots = shots
        self.errors: list[str] = []
        self.expected: tuple[str, ...] = ()
        """Words of console errors the test expects (a request failing offline): not kept."""
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        """Keeps an error the page's console shows. (No test changes the network of the
        tests' namespace, where Chromium runs: tests/support/netns.py.)"""
        if message.type == "error" and not any(words in message.text for words in self.expected):
            self.errors.append(f"console: {message.text}")

    def __repr__(self) -> str:
        return f"Player({self.name!r})"

    # -- looking ---------------------------------------------------------------------------

    @property
    def status(self) -> Locator:
        """Returns the status line."""
        return self.page.locator("#status")

    def expect_status(self, text: str) -> None:
        """Waits until the status line says exactly `text`."""
        expect(self.status).to_have_text(text)

    def expect_state(self, state: str) -> None:
        """Waits until the host is in `state` (its name, e.g. PLAYING_TO_MOVE)."""
        expect(self.page.locator("body")).to_have_attribute("data-state", state)

    def is_first(self) -> bool:
        """Returns whether this side moves first, once the match has started."""
        expect(self.page.locator("body")).to_have_attribute("data-state", re.compile("PLAYING_.*"))
        return self.page.locator("body").get_attribute("data-state") == "PLAYING_TO_MOVE"

    def saved_match(self) -> dict[str, Any] | None:
        """Returns what sessionStorage keeps of this tab's match of `game`."""
        key = self.page.evaluate(
            "['xand0', 'dots'].find((k) => document.body.classList.contains(k)) ?? 'connect4'"
        )
        raw = self.page.evaluate(f"sessionStorage.getItem('movewire.match.{key}')")
        return None if raw is None else dict(json.loads(raw))

    def match_id(self) -> str:
        """Returns the id of this tab's match once the page has saved it (sessionStorage), ten
        seconds at most: a page shows its state a moment before it saves its match."""
        deadline = time.monotonic() + 10.0
        while True:
            match = (self.saved_match() or {}).get("match")
            if match is not None:
                return str(match)
            assert time.monotonic() < deadline, f"{self.name}'s page saved no match"
            self.page.wait_for_timeout(50)

    def cell(self, move: str) -> Locator:
        """Returns an X and 0 cell by its move text ("ij": column i, row j)."""
        return self.page.locator(f"[data-cell='{move}']")

    def column(self, col: int) -> Locator:
        """Returns a Connect Four column button."""
        return self.page.locator(f".c4-col[data-col='{col}']")

    def board_text(self) -> str:
        """Returns the board as the screen reader hears it: every cell's or column's label."""
        labels = self.page.locator("#board [aria-label]").evaluate_all(
            "nodes => nodes.map(n => n.getAttribute('aria-label'))"
        )
        return "\n".join(str(label) for label in labels)

    def fits_viewport(self) -> bool:
        """Returns whether the page needs no sideways scrolling."""
        return bool(self.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))

    def shot(self, label: str) -> Path:
        """Saves a screenshot of the page as a test artefact; returns its path."""
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / f"{self.name}-{label}.png"
        # Finite animations (a falling piece) are fast-forwarded to their end first.
        self.page.screenshot(path=str(path), full_page=True, animations="disabled")
        return path

    # -- acting ----------------------------------------------------------------------------

    def open(self, path: str) -> None:
        """Opens a page of the relay."""
        self.page.goto(path)

    def play_cell(self, move: str) -> None:
        """Clicks an X and 0 cell on this side's turn."""
        self.expect_state("PLAYING_TO_MOVE")
        self.cell(move).click()

    def drop(self, col: int) -> None:
        """Clicks a Connect Four column on this side's turn."""
        self.expect_state("PLAYING_TO_MOVE")
        self.column(col).click()

    def key_to_cell(self, move: str) -> None:
        """Plays an X and 0 cell with the keyboard only: arrow keys to it, then Enter."""
        self.expect_state("PLAYING_TO_MOVE")
        self.page.locator("[data-cell][tabindex='0']").focus()
        here = str(self.page.evaluate("document.activeElement.dataset.cell"))
        col, row = int(here[0]), int(here[1])
        for axis, target in ((0, int(move[0])), (1, int(move[1]))):
            while (col, row)[axis] != target:
                step = 1 if target > (col, row)[axis] else -1
                self.page.keyboard.press(ARROWS[(step, 0) if axis == 0 else (0, step)])
                col, row = (col + step, row) if axis == 0 else (col, row + step)
        expect(self.page.locator(":focus")).to_have_attribute("data-cell", move)
        self.page.keyboard.press("Enter")

    def key_to_column(self, col: int) -> None:
        """Drops into a Connect Four column with the keyboard only."""
        self.expect_state("PLAYING_TO_MOVE")
        self.page.locator(".c4-col[tabindex='0']").focus()
        here = int(str(self.page.evaluate("document.activeElement.dataset.col")))
        while here != col:
            self.page.keyboard.press("ArrowRight" if col > here else "ArrowLeft")
            here += 1 if col > here else -1
        expect(self.page.locator(":focus")).to_have_attribute("data-col", str(col))
        self.page.keyboard.press("Enter")

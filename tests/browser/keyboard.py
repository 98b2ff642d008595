"""The keyboard in the browser tests: the focus moved with Tab alone, a chat line said, a
button pressed."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.browser.players import Player

__all__ = ["TABS", "press", "reach_by_tab", "say", "tab_to"]

TABS = 60
"""The most Tab presses any control of these pages is away from the top."""


def tab_to(page: Page, target: Locator, most: int = 40) -> None:
    """Presses Tab until `target` has the focus; fails by name after `most` presses."""
    expect(target).to_be_enabled()
    for _ in range(most):
        if target.evaluate("node => node === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {target}")


def reach_by_tab(player: Player, target: Locator, enter: bool = True) -> None:
    """Moves the focus to target with the Tab key alone, then presses Enter (unless not)."""
    expect(target).to_be_visible()
    for _ in range(TABS):
        if target.evaluate("node => node === document.activeElement"):
            break
        player.page.keyboard.press("Tab")
    else:
        raise AssertionError(f"{player}: {target} is not reachable with Tab")
    if enter:
        player.page.keyboard.press("Enter")


def say(side: Player, text: str) -> None:
    """Types a chat line and sends it with Enter, by keyboard."""
    field = side.page.get_by_label("Say something to your opponent")
    tab_to(side.page, field)
    side.page.keyboard.type(text)
    side.page.keyboard.press("Enter")


def press(side: Player, name: str) -> None:
    """Tabs to the button named `name` and presses Enter."""
    tab_to(side.page, side.page.get_by_role("button", name=name, exact=True))
    side.page.keyboard.press("Enter")

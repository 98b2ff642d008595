"""Draws the pages' PNG icons (relay/pages/icon-192.png, icon-512.png) from icon.svg with
headless Chromium, for the web app manifest: browsers that install a site want raster icons of
these sizes. Run once after icon.svg changes, and commit the PNGs:
`python3 -m tests.support.draw_icons`."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

__all__ = ["SIZES", "draw_icons"]

PAGES = Path(__file__).resolve().parents[2] / "relay" / "pages"
SIZES = (192, 512)
"""The sizes drawn, in pixels: the two a web app manifest is expected to give."""

CHROMIUM = "/usr/bin/chromium-headless-shell"


def draw_icons(pages: Path = PAGES, chromium: str = CHROMIUM) -> list[Path]:
    """Draws icon.svg of pages at each of SIZES as icon-SIZE.png beside it; returns their paths."""
    svg = (pages / "icon.svg").read_text(encoding="utf-8")
    drawn = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<style>*{{margin:0}}svg{{display:block}}</style>{sized}")
            path = pages / f"icon-{size}.png"
            page.screenshot(path=str(path), omit_background=True)
            page.close()
            drawn.append(path)
        browser.close()
    return drawn


if __name__ == "__main__":
    for path in draw_icons():
        print(f"drew {path}")

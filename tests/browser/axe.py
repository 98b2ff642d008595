"""axe-core (Deque's accessibility engine) run on a page as it is: its serious and critical
violations, and a report of them a reader wants. The browser tests that import it are skipped
when axe-core is missing (outside CI)."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

import pytest

from tests.browser.players import Player
from tests.support.components import in_ci

__all__ = ["no_severe_violations", "report", "violations"]

try:
    AXE = files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")
except (ModuleNotFoundError, FileNotFoundError) as exc:  # pragma: no cover - environment
    if in_ci():
        raise
    pytest.skip(f"axe-core is missing (axe-playwright-python: {exc})", allow_module_level=True)

SEVERE = ("serious", "critical")


def violations(side: Player) -> list[dict[str, Any]]:
    """Runs axe-core on the page as it is now; returns its serious and critical violations."""
    side.page.evaluate(AXE)
    found = side.page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [v for v in found["violations"] if v["impact"] in SEVERE]


def report(found: list[dict[str, Any]]) -> str:
    """Returns the violations as a reader wants them: rule, impact, and the nodes' HTML."""
    return "\n".join(
        f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): "
        + "; ".join(node["html"][:120] for node in v["nodes"][:4])
        for v in found
    )


def no_severe_violations(side: Player, when: str) -> None:
    """Asserts axe-core finds no serious or critical violation on the page as it is."""
    found = violations(side)
    assert not found, f"{when}:\n{report(found)}"

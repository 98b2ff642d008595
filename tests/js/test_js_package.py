"""The JavaScript host as the typed npm package `movewire`: strict types from its JSDoc, and a
packed package that holds the host and its types, not the relay's pages."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from tests.support.js_package import PACKAGE, ROOT, pack_list, stage, type_check

HOST_MODULES = [
    "claims",
    "clock",
    "driver",
    "endings",
    "errors",
    "events",
    "game",
    "host-options",
    "host-table",
    "inbox",
    "machine",
    "match-log",
    "offering",
    "player-calls",
    "movewire",
    "ratings",
    "relay-client",
    "rematch",
    "table",
    "tickets",
    "timing",
    "transport",
]
"""The modules the package holds: movewire.mjs, what it imports, and rematch.mjs."""


@pytest.fixture(scope="module")
def staged(js_tools: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Returns a copy of the package's folder with its types built, as `npm pack` packs it."""
    return stage(tmp_path_factory.mktemp("package"))


def test_the_host_type_checks_strict_from_its_jsdoc(js_tools: Path) -> None:
    type_check()  # raises ToolError with tsc's errors


def test_the_package_holds_the_host_and_its_types_and_not_the_pages(staged: Path) -> None:
    wanted = ["package.json", "page-kit.d.mts", "style.css"]
    wanted += [f"{name}.mjs" for name in HOST_MODULES]
    wanted += [f"types/{name}.d.mts" for name in HOST_MODULES]
    assert pack_list(staged) == sorted(wanted)


def test_the_package_is_named_movewire_and_versioned_as_the_distribution() -> None:
    manifest = json.loads((PACKAGE / "package.json").read_text())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert (manifest["name"], manifest["version"]) == ("movewire", project["version"])
    assert manifest["type"] == "module"
    assert manifest["exports"]["."] == {
        "types": "./types/movewire.d.mts",
        "default": "./movewire.mjs",
    }
    assert manifest["exports"]["./page"] == {"types": "./page-kit.d.mts"}  # types only
    locked = json.loads((PACKAGE / "package-lock.json").read_text())["packages"][""]
    assert locked["devDependencies"] == manifest["devDependencies"]


def test_the_types_name_what_docs_browser_md_lists(staged: Path) -> None:
    declared = (staged / "types" / "movewire.d.mts").read_text()
    types = set(re.findall(r"^export type (\w+)", declared, re.M))
    section = (ROOT / "docs" / "javascript.md").read_text().split("### The package's types", 1)[1]
    listed = set(re.findall(r"`(\w+)`", section.split("\n\n", 2)[1]))
    assert types == listed
    # The classes come with their methods typed, not as `any`.
    assert (
        'static resume(ticket: Ticket, options: Omit<HostOptions, "gameKey">): RelayHost;'
        in declared
    )
    game = (staged / "types" / "game.d.mts").read_text()
    assert "receiveMove(move: string): Answer;" in game

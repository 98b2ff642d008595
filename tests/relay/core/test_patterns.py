"""The identifiers' shapes are written once (relay.core.patterns): the relay's checks, OpenAPI's
patterns and the pages' copies all say the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from relay.api import openapi
from relay.api.fields import request
from relay.api.players import TOKEN
from relay.core import moderation, patterns, players
from relay.core.patterns import (
    B64URL_TEXT,
    CHALLENGE_ID_TEXT,
    CREDENTIAL_TEXT,
    KEY_TEXT,
    NAME_TEXT,
    PUBLIC_ID_TEXT,
    anchored,
)

PAGES = Path(__file__).resolve().parents[3] / "relay" / "pages"


def test_the_relay_checks_with_the_one_pattern_of_each() -> None:
    assert TOKEN is patterns.KEY and players.PLAYER is patterns.KEY
    assert request.NAME is patterns.NAME and moderation.PUBLIC_ID is patterns.PUBLIC_ID
    assert patterns.KEY.fullmatch("a" * 32) and not patterns.KEY.fullmatch("a" * 31)
    assert patterns.NAME.fullmatch("g.1-x_") and not patterns.NAME.fullmatch("-g")


def test_openapi_takes_its_patterns_from_them() -> None:
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found.append(node["pattern"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(openapi.document())
    identifiers = {pattern for pattern in found if pattern.startswith("^[A-Za-z0-9")}
    assert identifiers == {
        anchored(KEY_TEXT),
        anchored(NAME_TEXT),
        anchored(PUBLIC_ID_TEXT),
        anchored(CREDENTIAL_TEXT),
        anchored(CHALLENGE_ID_TEXT),
        anchored(B64URL_TEXT),
    }


def test_the_pages_copy_the_same_patterns() -> None:
    keys = (PAGES / "players.mjs").read_text()
    assert f"export const PLAYER_KEY = /{anchored(KEY_TEXT)}/;" in keys
    links = (PAGES / "page-links.mjs").read_text()
    assert f"export const ROOM_NAME = /{anchored(NAME_TEXT)}/;" in links

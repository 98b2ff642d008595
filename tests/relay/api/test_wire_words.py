"""One source per wire word (issue #31): each list of the relay's words that a client keeps,
in the Python SDK (sdk/) or the JavaScript host (relay/pages/*.mjs), must equal the relay's own,
read where the relay defines it (relay.core, and relay.api.schemas for OpenAPI's).

The JavaScript is read as text, as tests/relay/core/test_reasons.py reads it; a list is looked
for in every module of relay/pages, so that it may move between modules, and each copy found
must agree. The `ended` reasons and the identifiers' patterns have tests of their own
(test_reasons.py, test_patterns.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

from relay.api.openapi import document
from relay.core import clock, moderation, rated, rematch, table
from relay.core.errors import CODES
from sdk import clock as sdk_clock
from sdk import events as sdk_events
from sdk import moderation as sdk_moderation
from sdk import rematch as sdk_rematch
from sdk import table as sdk_table

ROOT = Path(__file__).resolve().parents[3]
PAGES = ROOT / "relay" / "pages"
SDK = ROOT / "sdk"

CLIENT_CODES = frozenset({"http/error"})
"""The codes a client makes itself, for an answer that is not the relay's (a proxy's page)."""


def quoted(text: str) -> list[str]:
    """Returns the double-quoted words of a piece of JavaScript, in order."""
    return re.findall(r'"([a-z_]+)"', text)


def pages() -> dict[str, str]:
    """Returns each module of relay/pages by name, as text."""
    return {path.name: path.read_text() for path in sorted(PAGES.glob("*.mjs"))}


def js_lists(pattern: str) -> dict[str, list[str]]:
    """Returns, by module, the words of each list that `pattern` (one group: the list's inside)
    finds in the pages."""
    found: dict[str, list[str]] = {}
    for name, text in pages().items():
        for index, match in enumerate(re.finditer(pattern, text, re.S)):
            found[f"{name}#{index}"] = quoted(match.group(1))
    return found


def js_exported(name: str) -> dict[str, list[str]]:
    """Returns every copy of `export const NAME = Object.freeze([...])` in the pages."""
    found = js_lists(rf"export const {name} = Object\.freeze\((?:/\*\*.*?\*/\s*\()?\[(.*?)\]")
    assert found, f"no page module exports {name}"
    return found


def openapi_schemas() -> dict[str, Any]:
    schemas: dict[str, Any] = document()["components"]["schemas"]
    return schemas


def test_the_event_kinds() -> None:
    written = {
        found
        for path in (ROOT / "relay" / "core").glob("*.py")
        for found in re.findall(r'"type":"([a-z]+)"', path.read_text())
    }
    assert written == {"started", "move", "pass", "ended", "undo"}
    described = [
        event["properties"]["type"]["const"] for event in openapi_schemas()["Event"]["oneOf"]
    ]
    assert sorted(described) == sorted(written)
    parsed = set(re.findall(r'kind == "([a-z]+)"', (SDK / "events.py").read_text()))
    assert parsed == written
    readers = {
        name: re.findall(r'type === "([a-z]+)"', text[text.index("export function parseEvent(") :])
        for name, text in pages().items()
        if "export function parseEvent(" in text
    }
    assert readers, "no page module exports parseEvent"
    for name, kinds in readers.items():
        assert set(kinds) == written, name


def test_the_claims() -> None:
    assert rated.CLAIMS == get_args(rated.Claim) == ("win", "draw", "loss")
    assert sdk_events.CLAIMS == get_args(sdk_events.Claim) == rated.CLAIMS
    for name, words in js_exported("CLAIMS").items():
        assert tuple(words) == rated.CLAIMS, name
    (move,) = [
        event
        for event in openapi_schemas()["Event"]["oneOf"]
        if event["properties"]["type"]["const"] == "move"
    ]
    assert tuple(move["properties"]["claim"]["enum"]) == rated.CLAIMS
    body = openapi_schemas()["MoveBody"]["properties"]["claim"]
    assert tuple(body["enum"]) == rated.CLAIMS


def test_the_offers_kinds_and_states() -> None:
    kinds, states = get_args(table.OfferKind), get_args(table.OfferState)
    assert get_args(sdk_table.OfferKind) == sdk_table._KINDS == kinds
    assert get_args(sdk_table.OfferState) == sdk_table._STATES == states
    for name, words in js_exported("OFFER_KINDS").items():
        assert tuple(words) == kinds, name
    for name, words in js_exported("OFFER_STATES").items():
        assert tuple(words) == states, name
    offer = openapi_schemas()["Table"]["properties"]["offer"]["anyOf"][0]["properties"]
    assert tuple(offer["kind"]["enum"]) == kinds
    assert tuple(offer["state"]["enum"]) == states
    assert tuple(openapi_schemas()["OfferBody"]["properties"]["kind"]["enum"]) == kinds


def test_the_rematch_states() -> None:
    states = get_args(rematch.RematchState)
    assert get_args(sdk_rematch.RematchState) == sdk_rematch._STATES == states
    checks = js_lists(r"function checkedRematch\(.*?const states = \[(.*?)\]")
    assert checks, "no page module checks a rematch's state"
    for name, words in checks.items():
        assert tuple(words) == states, name
    assert tuple(openapi_schemas()["Rematch"]["properties"]["state"]["enum"]) == states


def test_the_time_control_kinds() -> None:
    kinds = get_args(clock.ControlKind)
    field = re.search(r"kind: Literal\[(.*?)\]", (SDK / "clock.py").read_text())
    assert field is not None and tuple(quoted(field.group(1))) == kinds
    assert sdk_clock.TimeControl.fischer(300).kind == "fischer"
    assert '@param {"fischer" | "deadline"} kind' in pages()["clock.mjs"]
    described = [
        one["properties"]["kind"]["const"] for one in openapi_schemas()["TimeControl"]["oneOf"]
    ]
    assert tuple(described) == kinds


def test_the_moderation_words() -> None:
    assert get_args(sdk_moderation.ReportAbout) == sdk_moderation.REPORT_ABOUT
    assert sdk_moderation.REPORT_ABOUT == moderation.REPORT_ABOUT
    for name, words in js_exported("REPORT_ABOUT").items():
        assert tuple(words) == moderation.REPORT_ABOUT, name
    most = {
        name: int(found)
        for name, text in pages().items()
        for found in re.findall(r"export const REPORT_TEXT_MOST = (\d+);", text)
    }
    assert most and set(most.values()) == {moderation.REPORT_TEXT}, most
    kinds = get_args(moderation.BlockKind)
    assert get_args(sdk_moderation.BlockKind) == kinds
    checks = {
        name: re.findall(r'entry\.kind === "([a-z]+)"', text)
        for name, text in pages().items()
        if "entry.kind ===" in text
    }
    assert checks, "no page module checks a block's kind"
    for name, words in checks.items():
        assert tuple(words) == kinds, name
    blocked = openapi_schemas()["Blocks"]["properties"]["blocks"]["items"]["properties"]
    assert tuple(blocked["kind"]["enum"]) == kinds


def test_a_matchs_rated_words() -> None:
    described = openapi_schemas()["MatchInfo"]["properties"]["rated"]["enum"]
    words = [word for word in described if isinstance(word, str)]
    annotation = re.search(r"rated: bool \| Literal\[(.*?)\]", (SDK / "ratings.py").read_text())
    assert annotation is not None and quoted(annotation.group(1)) == words


def python_codes() -> set[str]:
    """Returns the error codes the Python SDK names, wherever in it."""
    found: set[str] = set()
    for path in SDK.rglob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r'code\s*[!=]=\s*"([a-z]+/[a-z_]+)"', text))
        found |= set(re.findall(r'return "([a-z]+/[a-z_]+)", ', text))
    return found


def js_codes() -> dict[str, set[str]]:
    """Returns, by module, the error codes the pages name: compared with an error's code, as the
    keys of a table of words for them, or as a constant."""
    found: dict[str, set[str]] = {}
    for name, text in pages().items():
        codes = set(re.findall(r'code\s*[!=]==\s*"([a-z]+/[a-z_]+)"', text))
        codes |= set(re.findall(r'^\s*"([a-z]+/[a-z_]+)":\s', text, re.M))
        codes |= set(re.findall(r'^export const [A-Z_]+ = "([a-z]+/[a-z_]+)";', text, re.M))
        codes |= set(re.findall(r'return \["([a-z]+/[a-z_]+)", ', text))
        if codes:
            found[name] = codes
    return found


def test_every_error_code_the_sdks_name_is_the_relays() -> None:
    assert not CLIENT_CODES & set(CODES)
    named = python_codes()
    assert {"match/expired", "match/started", "match/behind", "http/error"} <= named
    assert named - CLIENT_CODES <= set(CODES), sorted(named - CLIENT_CODES - set(CODES))
    by_module = js_codes()
    every = set().union(*by_module.values())
    assert {"chat/off", "offer/pending", "player/banned", "match/behind", "http/error"} <= every
    for name, codes in by_module.items():
        assert codes - CLIENT_CODES <= set(CODES), (name, sorted(codes - CLIENT_CODES - set(CODES)))
    assert set(openapi_schemas()["Error"]["properties"]["error"]["properties"]["code"]["enum"]) == (
        set(CODES)
    )

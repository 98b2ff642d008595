"""One source for how a match ends: relay.core.reasons.Reason, which every other list of the
`ended` reasons must equal: OpenAPI's, the Lua scripts', both SDKs' and the protocol doc's."""

from __future__ import annotations

import re
from pathlib import Path

from relay.api.openapi import document
from relay.core.reasons import ENDED_REASONS, Reason
from relay.core.verdicts import DISPUTED, ILLEGAL, OVER
from sdk.events import ENDED_REASONS as SDK_REASONS
from sdk.outcome import Reason as SdkReason

ROOT = Path(__file__).resolve().parents[3]
PAGES = ROOT / "relay" / "pages"
LUA = ROOT / "relay" / "store" / "redis" / "lua"


def quoted(text: str) -> list[str]:
    """Returns the double-quoted strings of a piece of JavaScript, in order."""
    return re.findall(r'"([a-z_]+)"', text)


def test_the_reasons_are_ten_wire_words() -> None:
    assert ENDED_REASONS == (
        "agreed", "disputed", "unconfirmed", "resigned", "abandoned", "timeout", "drawn",
        "stalled", "over", "illegal",
    )  # fmt: skip
    assert all(isinstance(reason, str) and reason == reason.value for reason in Reason)
    assert (OVER, ILLEGAL, DISPUTED) == (Reason.OVER, Reason.ILLEGAL, Reason.DISPUTED)


def test_openapi_lists_the_reasons() -> None:
    (ended,) = [
        schema
        for schema in document()["components"]["schemas"]["Event"]["oneOf"]
        if schema["properties"]["type"].get("const") == "ended"
    ]
    assert ended["properties"]["reason"]["enum"] == list(ENDED_REASONS)


def test_the_lua_writes_the_reasons_the_memory_store_writes() -> None:
    written = {
        found
        for path in LUA.glob("*.lua")
        for found in re.findall(r"finish\((?:ID|id), '([a-z]+)'", path.read_text())
    }
    # A referee's verdicts (over, illegal, and disputed with a verdict) come from Python.
    assert written | {Reason.OVER, Reason.ILLEGAL} == set(ENDED_REASONS)
    memory = "".join(
        path.read_text() for path in (ROOT / "relay" / "store" / "memory").glob("*.py")
    )
    assert set(re.findall(r"\bfinish\(\s*reg, \w+, Reason\.([A-Z]+)", memory)) == {
        reason.name for reason in Reason if reason not in (Reason.OVER, Reason.ILLEGAL)
    }


def test_both_sdks_list_the_same_reasons() -> None:
    assert set(SDK_REASONS) == set(ENDED_REASONS)
    assert [reason.value for reason in SdkReason][: len(ENDED_REASONS)] == list(ENDED_REASONS)
    client = (PAGES / "events.mjs").read_text()
    listed = re.search(r"export const ENDED_REASONS = Object\.freeze\(\[(.*?)\]\)", client, re.S)
    assert listed is not None and quoted(listed.group(1)) == list(ENDED_REASONS)
    endings = (PAGES / "endings.mjs").read_text()
    typedef = re.search(r"@typedef \{([^}]*)\} ReasonValue", endings)
    assert typedef is not None
    assert quoted(typedef.group(1))[: len(ENDED_REASONS)] == list(ENDED_REASONS)
    enum = re.search(r"export const Reason = Object\.freeze\(\{(.*?)\}\);", endings, re.S)
    assert enum is not None
    values = re.findall(r'^\s*[A-Z_]+: "([a-z_]+)",', enum.group(1), re.M)
    assert values[: len(ENDED_REASONS)] == list(ENDED_REASONS)


def test_the_protocol_doc_names_every_reason() -> None:
    protocol = (ROOT / "docs" / "protocol.md").read_text()
    missing = [reason for reason in ENDED_REASONS if f"`{reason}`" not in protocol]
    assert missing == []

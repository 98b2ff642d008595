"""The relay's HTTP API as the browser tests read it beside the pages: a match's status, its log."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from tests.support.relay_process import RelayProcess

__all__ = ["events_of", "match_status", "moves_of", "until_status"]


def match_status(relay: RelayProcess, match: str) -> str:
    """Returns a match's status as GET /v1/matches/{id} answers it ("waiting", "playing", ...),
    or the error code of a refusal ("match/expired", "match/unknown")."""
    try:
        with urllib.request.urlopen(f"{relay.url}/v1/matches/{match}", timeout=5) as answer:
            return str(json.loads(answer.read())["status"])
    except urllib.error.HTTPError as refused:
        with refused:
            return str(json.loads(refused.read())["error"]["code"])


def until_status(relay: RelayProcess, match: str, wanted: str, within: float = 5.0) -> None:
    """Returns once the match's status is `wanted`; fails by name after `within` seconds."""
    deadline = time.monotonic() + within
    status = match_status(relay, match)
    while status != wanted and time.monotonic() < deadline:
        time.sleep(0.05)
        status = match_status(relay, match)
    assert status == wanted, f"match {match} is {status!r}, not {wanted!r}, after {within} s"


def events_of(relay: RelayProcess, match: str) -> list[dict[str, Any]]:
    """Returns a match's whole log, read as a spectator (no token)."""
    url = f"{relay.url}/v1/matches/{match}/events?after=0&wait=0"
    with urllib.request.urlopen(url, timeout=5) as answer:
        events: list[dict[str, Any]] = json.loads(answer.read())["events"]
    return events


def moves_of(relay: RelayProcess, match: str) -> list[dict[str, Any]]:
    """Returns the moves and passes of a match's log, read as a spectator (no token)."""
    return [event for event in events_of(relay, match) if event["type"] in ("move", "pass")]

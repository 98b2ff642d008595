"""The relay's HTTP API as the browser tests use it beside the pages: a match's status, its log,
and a match of X and 0 played through it."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from tests.support.relay_process import RelayProcess

__all__ = [
    "WIN",
    "call",
    "events_of",
    "match_status",
    "moves_of",
    "until_status",
    "xand0_match",
]

WIN = ["00", "10", "11", "20", "22"]
"""X takes the diagonal while O answers on the top row."""


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


def call(relay: RelayProcess, path: str, body: object = None, token: str | None = None) -> Any:
    """Sends one request to the relay; returns the decoded JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        relay.url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def xand0_match(relay: RelayProcess, moves: list[str], *, end: bool) -> tuple[str, list[str]]:
    """Plays moves of X and 0 through the relay (the last ending the game, agreed, if end);
    returns the match id and the tokens (first mover's first)."""
    a = call(relay, "/v1/seek", {"game": "xand0", "version": "1", "room": "replayed"})
    b = call(relay, "/v1/seek", {"game": "xand0", "version": "1", "room": "replayed"})
    match = a["match"]
    # Seat 0 polls again, as a live client does: that starts the paired match.
    started = call(relay, f"/v1/matches/{match}/events?after=0&wait=0", token=a["token"])
    first = started["events"][0]["first"]
    tokens = [a["token"], b["token"]] if first == a["seat"] else [b["token"], a["token"]]
    for index, move in enumerate(moves):
        last = end and index == len(moves) - 1
        body = {"after": index + 1, "move": move, "end": last}
        call(relay, f"/v1/matches/{match}/moves", body, tokens[index % 2])
    if end:
        confirm = {"after": len(moves) + 1, "agree": True}
        call(relay, f"/v1/matches/{match}/confirm", confirm, tokens[len(moves) % 2])
    return match, tokens

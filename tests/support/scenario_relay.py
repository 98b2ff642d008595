"""Scenario relay: one scripted fake of protocol v1, which both hosts (Python and JavaScript)
replay the scenarios of `tests/support/host_scenarios/` against.

A seek names its scenario as its game key. The match's log is then the scenario's `log`, read
in order: each event (the partner's or the relay's) is appended as soon as every entry before
it is; an `await` entry waits for this side's next write, whose event (a move, a pass, an
`ended` of a confirm or a resignation, an answer's `undo` or `ended`) takes its place. A `table`
entry changes the table (the partner's offer), a `fault` entry makes the next requests fail,
and an event marked `hidden` is kept from polls until a write is refused: the partner's play
that reached the relay just before this side's write. Every write the host posts is recorded,
and `GET /record/{match}` answers them. `python -m tests.support.scenario_relay` serves it on a
free port and prints its URL (the node runner starts it so).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

__all__ = ["SCENARIOS", "load_scenarios", "scenario_relay"]

SCENARIOS = Path(__file__).resolve().parent / "host_scenarios"
"""The corpus: one JSON file per scenario, named for it."""

Json = dict[str, Any]


def load_scenarios() -> dict[str, Json]:
    """Returns every scenario of the corpus by name (its file's stem)."""
    return {path.stem: json.loads(path.read_text()) for path in sorted(SCENARIOS.glob("*.json"))}


@dataclass
class Match:
    """One scenario played: its log, its table, the script left and the writes recorded."""

    scenario: Json
    seat: int
    token: str
    script: list[Json]
    log: list[Json] = field(default_factory=list)
    hidden_from: int | None = None
    """The number of the first event kept from polls (None: all are shown)."""
    table: Json | None = None
    writes: list[str] = field(default_factory=list)
    faults: list[Json] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def last(self) -> int:
        """Returns the number of the log's last event."""
        return len(self.log)

    @property
    def shown(self) -> int:
        """Returns the number of the last event polls may see."""
        return self.last if self.hidden_from is None else self.hidden_from - 1

    @property
    def over(self) -> bool:
        """Returns whether the log ends with `ended`."""
        return bool(self.log) and self.log[-1]["type"] == "ended"

    def append(self, event: Json) -> int:
        """Appends an event, numbered, and wakes the held requests; returns its number."""
        self.log.append({"seq": self.last + 1, **event})
        self.wake()
        return self.last

    def wake(self) -> None:
        """Wakes every request held on this match."""
        self.changed.set()
        self.changed = asyncio.Event()

    def advance(self) -> None:
        """Runs the script up to its next `await` (or its end)."""
        while self.script and "await" not in self.script[0]:
            entry = self.script.pop(0)
            if "fault" in entry:
                self.faults.append(dict(entry["fault"]))
            elif "table" in entry:
                self.set_offer(entry["table"].get("offer"))
            else:
                event = {key: value for key, value in entry.items() if key != "hidden"}
                seq = self.append(event)
                if entry.get("hidden") and self.hidden_from is None:
                    self.hidden_from = seq

    def answered(self) -> None:
        """Lets the script past the `await` this side's write answered, and runs it on."""
        if self.script and "await" in self.script[0]:
            self.script.pop(0)
        self.advance()

    def set_offer(self, offer: Json | None) -> None:
        """Changes the table's offer (stamped with the log's last event) and its version."""
        if offer is not None and "at" not in offer:
            offer = {**offer, "at": self.last}
        version = 1 if self.table is None else self.table["version"] + 1
        self.table = {
            "version": version,
            "names": [None, None],
            "presence": [{"here": True}, {"here": True}],
            "offer": offer,
            "chat": [],
            "claim_in": None,
            "claim_after": None,
        }
        self.wake()


@dataclass
class Relay:
    """The scenario relay's matches, by id."""

    scenarios: dict[str, Json]
    matches: dict[str, Match] = field(default_factory=dict)


RELAY = web.AppKey("relay", Relay)


def _refused(status: int, code: str) -> web.Response:
    return web.json_response({"error": {"code": code, "message": code}}, status=status)


def _match_of(request: web.Request) -> Match:
    match = request.app[RELAY].matches.get(request.match_info["match"])
    if match is None:
        raise web.HTTPNotFound()
    return match


async def _faulted(request: web.Request, match: Match) -> web.StreamResponse | None:
    """Returns the failure of a request a `fault` entry names, or None."""
    action = f"{request.method} {request.path.rsplit('/', 1)[-1]}"
    for fault in match.faults:
        if fault.get("on", action) == action and fault["times"] > 0:
            fault["times"] -= 1
            if fault.get("status") is None:
                assert request.transport is not None
                request.transport.abort()  # a network error: the connection drops unanswered
                return web.Response()
            return _refused(int(fault["status"]), "relay/unavailable")
    return None


async def _held(request: web.Request, match: Match, ready: Any) -> None:
    """Waits, up to the request's `wait=` seconds, until `ready()` holds."""
    wait = float(request.query.get("wait", "0"))
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(wait):
            while not ready():
                await match.changed.wait()


def _table_for(request: web.Request, match: Match) -> Json | None:
    """Returns the table when the reader's `table=` version is older, else None."""
    if "table" not in request.query or match.table is None:
        return None
    return match.table if match.table["version"] > int(request.query["table"]) else None


async def seek(request: web.Request) -> web.Response:
    body = await request.json()
    relay = request.app[RELAY]
    scenario = relay.scenarios[body["game"]]
    match_id = "m" + secrets.token_hex(6)
    script = [dict(entry) for entry in scenario["log"]]
    match = Match(scenario, scenario["seat"], body["token"], script)
    relay.matches[match_id] = match
    match.writes.append("seek")
    match.advance()
    return web.json_response({"match": match_id, "seat": match.seat, "token": body["token"]})


async def events(request: web.Request) -> web.StreamResponse:
    match = _match_of(request)
    failed = await _faulted(request, match)
    if failed is not None:
        return failed
    after = int(request.query["after"])
    if after > match.shown:
        return _refused(409, "match/behind")
    await _held(request, match, lambda: match.shown > after or _table_for(request, match))
    answer: Json = {"events": match.log[after : match.shown]}
    table = _table_for(request, match)
    if table is not None:
        answer["table"] = table
    return web.json_response(answer)


async def write(request: web.Request) -> web.StreamResponse:
    match = _match_of(request)
    action = request.match_info["action"]
    failed = await _faulted(request, match)
    if failed is not None:
        return failed
    body = await request.json()
    if action == "cancel":
        return _refused(409, "match/started")
    if match.hidden_from is not None:
        # The partner's play reached the relay first: this write is stale, and the log says why.
        match.writes.append(f"{action} refused")
        match.hidden_from = None
        match.wake()
        return _refused(409, "match/finished" if match.over else "turn/stale")
    if match.over:
        return _refused(409, "match/finished")
    seat = match.seat
    if action == "resign":
        match.writes.append("resign")
        seq = match.append({"type": "ended", "reason": "resigned", "seat": seat})
        match.answered()
        return web.json_response({"seq": seq})
    if action == "answer":
        return _answer(match, body)
    if action == "offer":
        return _offer(match, body)
    after = int(body["after"])
    if action == "confirm":
        agree, reason = bool(body["agree"]), str(body.get("reason", ""))
        match.writes.append(f"confirm after={after} agree={agree} reason={reason}")
        ended: Json = {"type": "ended", "reason": "agreed" if agree else "disputed", "seat": seat}
        if not agree:
            ended |= {"at": after, "detail": reason}
        seq = match.append(ended)
        match.answered()
        return web.json_response({"seq": seq})
    if after != match.last:
        return _refused(409, "turn/stale")
    if action == "pass":
        match.writes.append(f"pass after={after}")
        seq = match.append({"type": "pass", "seat": seat})
        match.answered()
        return web.json_response({"seq": seq})
    move, end, claim = str(body["move"]), bool(body["end"]), body.get("claim")
    event: Json = {"type": "move", "seat": seat, "move": move, "end": end}
    if claim is not None:
        event["claim"] = claim
    match.writes.append(f"move after={after} {move} end={end} claim={claim}")
    seq = match.append(event)
    match.answered()
    await _held(request, match, lambda: match.shown > seq or _table_for(request, match))
    answer: Json = {"seq": seq, "events": match.log[seq : match.shown]}
    table = _table_for(request, match)
    if table is not None:
        answer["table"] = table
    return web.json_response(answer)


def _answer(match: Match, body: Json) -> web.Response:
    """Accepts or declines the partner's standing offer."""
    offer = None if match.table is None else match.table["offer"]
    accept = bool(body["accept"])
    if offer is None or offer["state"] != "offered":
        return _refused(409, "offer/none")
    match.writes.append(f"answer accept={accept} after={body.get('after')}")
    seq = None
    if accept:
        if offer["kind"] == "draw":
            seq = match.append({"type": "ended", "reason": "drawn", "seat": match.seat})
        else:
            seq = match.append({"type": "undo", "seat": offer["by"], "count": offer["count"]})
    match.set_offer({**offer, "state": "accepted" if accept else "declined"})
    match.answered()
    assert match.table is not None
    return web.json_response({"seq": seq, "table": match.table})


def _offer(match: Match, body: Json) -> web.Response:
    """Offers a draw or asks a takeback (of this side's last move, and the partner's reply)."""
    kind, after = str(body["kind"]), int(body["after"])
    match.writes.append(f"offer {kind} after={after}")
    offer: Json = {"kind": kind, "by": match.seat, "at": after, "state": "offered"}
    if kind == "takeback":
        offer["count"] = 1 if match.log[-1].get("seat") == match.seat else 2
    match.set_offer(offer)
    match.answered()
    assert match.table is not None
    return web.json_response(match.table)


async def record(request: web.Request) -> web.Response:
    return web.json_response({"writes": _match_of(request).writes})


def create_app(scenarios: dict[str, Json] | None = None) -> web.Application:
    """Returns the scenario relay's application, serving `scenarios` (default: the corpus)."""
    app = web.Application()
    app[RELAY] = Relay(load_scenarios() if scenarios is None else scenarios)
    app.router.add_post("/v1/seek", seek)
    app.router.add_get("/v1/matches/{match}/events", events)
    app.router.add_post("/v1/matches/{match}/{action}", write)
    app.router.add_get("/record/{match}", record)
    return app


@contextlib.asynccontextmanager
async def scenario_relay() -> AsyncIterator[str]:
    """Serves the scenario relay on a free port of this machine; yields its URL."""
    runner = web.AppRunner(create_app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server = site._server
    assert isinstance(server, asyncio.base_events.Server)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def _serve() -> None:
    async with scenario_relay() as url:
        print(url, flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve())
    sys.exit(0)

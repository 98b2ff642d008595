"""The docs match the relay: the curl game of docs/protocol.md runs, and OpenAPI describes all."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from jsonschema import Draft202012Validator

from relay import create_app
from tests.relay.api.openapi_checker import Checker
from tests.relay.wire import Seat, Wire
from tests.support.relay_zygote import run

ROOT = Path(__file__).resolve().parents[3]
PROTOCOL = ROOT / "docs" / "protocol.md"


def doc_block(marker: str) -> str:
    """Returns the fenced code block that follows `<!-- example: marker -->` in protocol.md."""
    text = PROTOCOL.read_text()
    found = re.search(rf"<!-- example: {marker} -->\n```\w*\n(.*?)```", text, re.S)
    assert found, f"no example {marker!r} in {PROTOCOL}"
    return found.group(1)


def test_curl_game_in_the_protocol_doc_runs_as_written(relay_url: str) -> None:
    script = doc_block("xand0-curl")
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        env={**os.environ, "RELAY": relay_url},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # Each post printed its answer; the out-of-turn one is the documented 409.
    assert any('"turn/not_yours"' in line for line in lines), result.stdout
    log = json.loads(lines[-1])
    events = log["events"]
    x = events[1]["seat"]
    assert [(e["type"], e.get("move"), e.get("seat")) for e in events] == [
        ("started", None, None),
        ("move", "00", x),
        ("move", "10", 1 - x),
        ("move", "11", x),
        ("move", "20", 1 - x),
        ("move", "22", x),
        ("ended", None, 1 - x),
    ]
    assert events[0]["first"] == x and events[5]["end"] is True
    assert events[6]["reason"] == "agreed"
    printed = PROTOCOL.read_text().split("The last command prints:")[1]
    shown = json.loads(re.search(r"```json\n(.*?)```", printed, re.S).group(1))  # type: ignore[union-attr]
    if x == 0:
        assert shown == log


async def test_openapi_document_describes_what_the_relay_does(relay_url: str) -> None:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
        wire = Wire(session, relay_url)
        status, doc = await wire.call("GET", "/v1/openapi.json")
        assert status == 200 and doc["openapi"].startswith("3.")
        Draft202012Validator.check_schema(doc["components"]["schemas"]["Event"])
        checker = Checker(doc)
        m = "/v1/matches/{match}"

        status, body = await wire.call("POST", "/v1/seek", {"game": "openapi", "room": "r"})
        checker.check("/v1/seek", "POST", status, body)
        waiting = (await wire.call("POST", "/v1/seek", {"game": "openapi-alone"}))[1]
        status, body = await wire.call("POST", "/v1/seek", {"game": "bad name"})
        checker.check("/v1/seek", "POST", status, body)
        status, body = await wire.call("POST", "/v1/seek", {"game": "openapi", "room": "r"})
        checker.check("/v1/seek", "POST", status, body)
        status, body = await wire.call("POST", "/v1/seek", {"game": "openapi", "room": "r"})
        checker.check("/v1/seek", "POST", status, body)
        x, o = await wire.pair("openapi")
        headers = x.auth
        table_calls: tuple[tuple[str, object, Seat], ...] = (
            ("chat", {"text": "<b>hi</b>"}, o),
            ("chat", {"text": ""}, o),
            ("offer", {"kind": "draw", "after": 1}, o),
            ("offer", {"kind": "takeback", "after": 1}, x),
            ("answer", {"accept": False}, x),
            ("answer", {"accept": True, "after": 1}, x),
            ("claim", {"after": 1}, o),
        )
        for action, payload, who in table_calls:
            status, body = await wire.post(who, action, payload)
            checker.check(f"{m}/{action}", "POST", status, body)
        for action, payload, who in (
            ("moves", {"after": 1, "move": "a"}, x),
            ("moves", {"after": 1, "move": "a"}, o),
            ("pass", {"after": 2}, o),
            ("pass", {"after": 2}, x),
            ("moves", {"after": 3, "move": "b", "end": True}, x),
            ("confirm", {"after": 4, "agree": False}, o),
            ("resign", {}, x),
            ("cancel", None, x),
        ):
            status, body = await wire.post(who, action, payload)
            checker.check(f"{m}/{action}", "POST", status, body)
        status, body = await wire.call(
            "POST",
            f"/v1/matches/{waiting['match']}/cancel",
            None,
            {"Authorization": f"Bearer {waiting['token']}"},
        )
        checker.check(f"{m}/cancel", "POST", status, body)
        offers: tuple[tuple[object, Seat], ...] = (
            ({"offer": True}, x),
            ({"offer": "yes"}, o),
            ({"offer": True}, o),
        )
        for offer, who in offers:
            status, body = await wire.post(who, "rematch", offer)
            checker.check(f"{m}/rematch", "POST", status, body)
        assert body["state"] == "accepted" and body["first"] in (0, 1)
        status, body = await wire.call(
            "POST", "/v1/seek", {"game": "openapi", "room": "listed", "public": True}
        )
        checker.check("/v1/seek", "POST", status, body)
        player = {"Authorization": "Bearer " + "P" * 40}
        correspondence = {"kind": "deadline", "per_move": 86400}
        status, body = await wire.call(
            "POST",
            "/v1/seek",
            {"game": "openapi", "player": "P" * 40, "contact": "c", "time_control": correspondence},
        )
        checker.check("/v1/seek", "POST", status, body)
        rated: list[Seat] = []
        for rater in ("Q", "R"):
            status, body = await wire.call(
                "POST", "/v1/seek", {"game": "openapi-rated", "player": rater * 40}
            )
            rated.append(Seat(body))
        # Seat 0 polls again, as a live client does: that starts the paired match.
        assert (await wire.events(rated[0].match, 0, rated[0]))[0]["type"] == "started"
        status, body = await wire.post(rated[0], "resign", {})
        checker.check(f"{m}/resign", "POST", status, body)
        raters = {"Authorization": "Bearer " + "Q" * 40}
        status, body = await wire.call("GET", f"/v1/matches/{rated[0].match}")
        assert body["rated"] is True
        checker.check(m, "GET", status, body)
        board = "/v1/games/{game}/leaderboard"
        for path, check_path, auth in (
            ("/v1/player/matches", "/v1/player/matches", raters),
            ("/v1/player/ratings", "/v1/player/ratings", raters),
            ("/v1/player/ratings?game=openapi-rated", "/v1/player/ratings", raters),
            ("/v1/player/ratings?game=-", "/v1/player/ratings", raters),
            ("/v1/player/ratings", "/v1/player/ratings", None),
            ("/v1/games/openapi-rated/leaderboard?limit=5", board, None),
            ("/v1/games/openapi-rated/leaderboard?limit=0", board, None),
            ("/v1/player/matches", "/v1/player/matches", player),
            ("/v1/player/matches", "/v1/player/matches", None),
            (f"/v1/matches/{x.match}/rematch?after=0", f"{m}/rematch", headers),
            (f"/v1/matches/{x.match}/rematch", f"{m}/rematch", None),
            (f"/v1/matches/{x.match}/rematch?after=x", f"{m}/rematch", None),
            ("/v1/lobby?game=openapi", "/v1/lobby", None),
            ("/v1/lobby?game=openapi&after=0", "/v1/lobby", None),
            ("/v1/lobby", "/v1/lobby", None),
            (f"/v1/matches/{x.match}/events?after=0", f"{m}/events", headers),
            (f"/v1/matches/{x.match}/events?after=0&table=0", f"{m}/events", headers),
            (f"/v1/matches/{x.match}/events?after=0&table=0&chat=0", f"{m}/events", None),
            (f"/v1/matches/{x.match}/table", f"{m}/table", headers),
            (f"/v1/matches/{x.match}/table?after=0&chat=1", f"{m}/table", None),
            (f"/v1/matches/{x.match}/table?after=x", f"{m}/table", None),
            (f"/v1/matches/{x.match}/events?after=0", f"{m}/events", None),
            (f"/v1/matches/{x.match}/events?after=x", f"{m}/events", None),
            (f"/v1/matches/{x.match}/events", f"{m}/events", {"Authorization": "Bearer no"}),
            ("/v1/matches/none/events", f"{m}/events", None),
            (f"/v1/matches/{x.match}", m, None),
            ("/v1/matches/none", m, None),
            ("/healthz", "/healthz", None),
            ("/v1/games", "/v1/games", None),
        ):
            status, body = await wire.call("GET", path, headers=auth)
            checker.check(check_path, "GET", status, body)
        async with session.get(relay_url + "/metrics") as answer:
            assert answer.status == 200 and "relay_moves_relayed_total" in await answer.text()
        documented_ops = {(path, method) for path, ops in doc["paths"].items() for method in ops}
        exercised = {(path, method) for path, method, _ in checker.seen}
        # Moderation is checked against this document in test_moderation_api.py (its relay
        # has an admin secret).
        moderation = {"/v1/player/blocks", "/v1/matches/{match}/report"}
        # Passkeys are checked against it in test_passkeys_api.py (its relay has the settings),
        # Web Push in test_push_api.py (its relay has a VAPID key).
        documented_ops = {
            (path, method)
            for path, method in documented_ops
            if not path.startswith(
                ("/v1/admin/", "/v1/signin/", "/v1/player/passkeys", "/v1/push", "/v1/player/push")
            )
            and path not in moderation | {"/v1/player/code"}
            # Challenges, follows and opponents: in test_challenges_api.py (two known keys).
            and not path.startswith(("/v1/player/challenges", "/v1/player/follows"))
            and path != "/v1/player/opponents"
        }
        # Not JSON: /metrics above, the record in test_record.py, this document itself.
        assert documented_ops - exercised <= {
            ("/metrics", "get"),
            ("/v1/openapi.json", "get"),
            ("/v1/matches/{match}/record", "get"),
        }


def test_openapi_paths_are_exactly_the_routes() -> None:
    app = create_app()
    routes = {
        (route.resource.canonical, route.method.lower())
        for route in app.router.routes()
        if route.resource is not None
        and route.method != "HEAD"
        and route.resource.canonical.startswith(("/v1", "/healthz", "/metrics"))
    }
    from relay.api.openapi import document

    documented = {(path, method) for path, ops in document()["paths"].items() for method in ops}
    assert routes == documented


@pytest.mark.parametrize(
    ("flag", "says"),
    [
        ("--grace=5", "grace"),
        ("--hold=-1", "hold"),
        ("--max-move=0", "max_move"),
        ("--store=postgres://x", "store"),
        ("--referee=nosuchgame", "'nosuchgame': no installed game"),
        ("--passkey-origin=https://x.example", "need --passkey-rp-id"),
        ("--passkey-rp-id=x.example", "passkeys need a secret"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_message(flag: str, says: str) -> None:
    result = run([sys.executable, "-m", "relay", "--hold=10", flag], cwd=ROOT, timeout=30)
    assert result.returncode == 2, result.stderr
    last = result.stderr.splitlines()[-1]
    assert "error:" in last and says in last and "Traceback" not in result.stderr

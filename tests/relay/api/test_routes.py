"""The route table is the one source of the routes: the front, aiohttp and OpenAPI agree with it."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from relay import create_app
from relay.api.endpoints import Api
from relay.api.metrics import RelayMetrics
from relay.api.openapi import document
from relay.api.routes import ROUTES, Route, Router
from relay.config import Config
from relay.store.memory.store import MemoryStore

RELAY = Path(__file__).resolve().parents[3] / "relay"


def concrete(path: str) -> str:
    """Returns a path of the template as a client sends it."""
    return path.replace("{match}", "Ab3_-x.Y~z").replace("{game}", "Ab3_-x.Y~z")


def test_every_row_is_served_by_the_front_aiohttp_and_documented() -> None:
    router = Router()
    app = create_app(Config(pages=False))
    served = {
        (resource.canonical, route.method)
        for resource in app.router.resources()
        for route in resource
        if route.method != "HEAD"
    }
    documented = {
        (path, method.upper()): operation for path, ops in document()["paths"].items()
        for method, operation in ops.items()
    }  # fmt: skip
    api = Api(Config(), MemoryStore(), RelayMetrics())
    table = {(row.path, row.method) for row in ROUTES}
    assert served == table
    assert set(documented) == table
    for row in ROUTES:
        found = router.find(row.method.encode(), concrete(row.path).encode())
        segment = "{match}" in row.path or "{game}" in row.path
        assert found == (row, "Ab3_-x.Y~z" if segment else ""), row
        assert documented[(row.path, row.method)]["operationId"] == row.operation
        assert str(row.ok) in documented[(row.path, row.method)]["responses"]
        owner = {
            "players": api.players, "moves": api.moves, "matches": api.matches,
            "lobby": api.lobby, "table": api.tables, "moderation": api.moderation,
            "passkeys": api.passkeys, "push": api.push, "service": api,
            "challenges": api.challenges,
        }[row.part]  # fmt: skip
        assert inspect.iscoroutinefunction(getattr(owner, row.endpoint)), row
        assert api.endpoints[row.endpoint] == getattr(owner, row.endpoint)


def test_operations_and_endpoints_are_unique() -> None:
    assert len({row.operation for row in ROUTES}) == len(ROUTES)
    assert len({(row.method, row.path) for row in ROUTES}) == len(ROUTES)


def test_a_new_row_is_routed_by_the_router() -> None:
    extra = Route("POST", "/v1/matches/{match}/note", "note", "note", "A note.")
    router = Router((*ROUTES, extra))
    assert router.find(b"POST", b"/v1/matches/m1/note") == (extra, "m1")
    assert router.find(b"POST", b"/v1/matches/m1/moves") == (ROUTES[3], "m1")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        (b"GET", b"/v1/seek"),  # another method: aiohttp answers 405
        (b"HEAD", b"/healthz"),
        (b"POST", b"/v1/matches/m%31/moves"),  # percent-encoded: aiohttp decodes it
        (b"POST", b"/v1/matches//moves"),
        (b"POST", b"/v1/matches/m1/moves/"),
        (b"GET", b"/v1/matches/m1/events/x"),
        (b"GET", b"/"),
        (b"GET", b"/games/healthz"),
    ],
)
def test_other_requests_are_left_to_aiohttp(method: bytes, path: bytes) -> None:
    assert Router().find(method, path) is None


def test_a_prefix_is_part_of_every_route() -> None:
    router = Router(prefix="/games")
    assert router.find(b"GET", b"/games/healthz") == (ROUTES[-3], "")
    assert router.find(b"GET", b"/healthz") is None


def test_the_protocol_doc_lists_every_route() -> None:
    text = (RELAY.parent / "docs" / "protocol.md").read_text()
    table = text.split("## Endpoints", 1)[1].split("\n\n", 2)[1]
    listed = set()
    for line in table.splitlines():
        found = re.match(r"\| `(GET|POST) ([^`\[?]+)", line)
        if found:
            listed.add((found.group(1), found.group(2).replace("{id}", "{match}")))
    assert listed == {(row.method, row.path) for row in ROUTES}

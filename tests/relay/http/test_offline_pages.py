"""The installable pages as the relay serves them: the web app manifest, its icons, the service
worker and the list of files it keeps offline (every page served, under a version that follows
their contents), all with the pages' headers; `--copy-pages` writes the same list."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient

from relay.config import Config
from relay.games import installed_games
from relay.http.app import create_app
from relay.http.offline import offline_files
from relay.http.pages import CACHE_CONTROL, CONTENT_SECURITY_POLICY, PAGES_DIR, copy_pages

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]


def listed(script: str) -> dict[str, object]:
    """Returns what offline-files.js sets (self.OFFLINE = {...})."""
    found = re.search(r"self\.OFFLINE = (\{.*\});", script, re.DOTALL)
    assert found is not None, script
    value: dict[str, object] = json.loads(found.group(1))
    return value


async def test_the_manifest_worker_and_icons_are_served_typed_with_the_pages_headers(
    aiohttp_client: MakeClient,
) -> None:
    client = await aiohttp_client(create_app(Config()))
    types = {
        "/manifest.webmanifest": "application/manifest+json",
        "/service-worker.js": "text/javascript; charset=utf-8",
        "/offline-files.js": "text/javascript; charset=utf-8",
        "/icon-192.png": "image/png",
        "/icon-512.png": "image/png",
    }
    for path, wanted in types.items():
        answer = await client.get(path)
        assert answer.status == 200, path
        assert answer.headers["Content-Type"] == wanted, path
        assert answer.headers["Cache-Control"] == CACHE_CONTROL == "no-cache", path
        assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, path
        again = await client.get(path, headers={"If-None-Match": answer.headers["ETag"]})
        assert again.status == 304, path
    # The policy lets a page register its own worker and read its own manifest, nothing more.
    assert "default-src 'self'" in CONTENT_SECURITY_POLICY
    manifest = json.loads(await (await client.get("/manifest.webmanifest")).read())
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "./",
        "./",
        "standalone",
    )
    for icon in manifest["icons"]:
        assert (await client.get("/" + icon["src"])).status == 200, icon
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    for page in ("/index.html", "/replay.html"):
        assert (
            '<link rel="manifest" href="manifest.webmanifest">'
            in await (await client.get(page)).text()
        )


async def test_the_worker_keeps_every_page_served_but_never_the_protocol(
    aiohttp_client: MakeClient,
) -> None:
    games = installed_games()
    client = await aiohttp_client(create_app(Config(games=games)))
    files = listed(await (await client.get("/offline-files.js")).text())["files"]
    assert isinstance(files, list)
    assert files[0] == "./" and "index.html" in files and "replay.html" in files
    assert {"lobby.mjs", "replay-page.mjs", "manifest.webmanifest", "xand0.html"} <= set(files)
    assert not {"service-worker.js", "offline-files.js"} & set(files)
    assert [file for file in files if file.startswith(("v1/", "/", "."))] == ["./"]
    for file in files:
        assert (await client.get("/" + file.removeprefix("./"))).status == 200, file
    worker = await (await client.get("/service-worker.js")).text()
    assert 'importScripts("offline-files.js")' in worker
    assert 'new URL("v1/", SCOPE)' in worker


def test_the_version_follows_the_pages_contents() -> None:
    one = listed(offline_files({"/a.mjs": '"1"', "/index.html": '"2"'}).decode())
    same = listed(offline_files({"/index.html": '"2"', "/a.mjs": '"1"'}).decode())
    changed = listed(offline_files({"/a.mjs": '"3"', "/index.html": '"2"'}).decode())
    assert one == same and one["version"] != changed["version"]
    assert one["files"] == ["./", "a.mjs", "index.html"]


async def test_copied_pages_hold_the_list_the_relay_serves(
    aiohttp_client: MakeClient, tmp_path: Path
) -> None:
    games = installed_games()
    copied = copy(tmp_path)
    client = await aiohttp_client(create_app(Config(games=games)))
    assert copied == await (await client.get("/offline-files.js")).read()


def copy(target: Path) -> bytes:
    """Copies the pages of the installed games into target as `--copy-pages` does; checks it
    counted every file written and copied the worker as it is; returns the list it wrote."""
    count = copy_pages(target, installed_games())
    assert count == sum(1 for path in target.rglob("*") if path.is_file())
    worker = (target / "service-worker.js").read_bytes()
    assert worker == (PAGES_DIR / "service-worker.js").read_bytes()
    return (target / "offline-files.js").read_bytes()

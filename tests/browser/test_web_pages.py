"""The relay serves the pages and the JavaScript host at /, or nothing there with pages off."""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from relay.__main__ import parse_args
from relay.config import Config
from relay.games import installed_games
from relay.http.app import create_app
from relay.http.encodings import accepts_gzip
from relay.http.pages import CACHE_CONTROL, NOT_SERVED, PAGES_DIR, load_pages
from tests.support.relay_process import RelayProcess

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]


async def test_lobby_is_served_at_root_as_html_that_is_revalidated(
    aiohttp_client: MakeClient,
) -> None:
    client = await aiohttp_client(create_app(Config()))
    answer = await client.get("/")
    assert answer.status == 200
    assert answer.headers["Content-Type"] == "text/html; charset=utf-8"
    assert answer.headers["Cache-Control"] == CACHE_CONTROL == "no-cache"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    assert "<title>movewire" in await answer.text()
    etag = answer.headers["ETag"]
    again = await client.get("/", headers={"If-None-Match": etag})
    assert again.status == 304
    assert again.headers["ETag"] == etag
    assert await again.read() == b""


async def test_modules_are_served_as_javascript_so_browsers_run_them(
    aiohttp_client: MakeClient,
) -> None:
    games = installed_games()  # the example games' pages are served beside the relay's
    client = await aiohttp_client(create_app(Config(games=games)))
    for path in ("/movewire.mjs", "/relay-client.mjs", "/xand0-page.mjs", "/connect4.mjs"):
        answer = await client.get(path)
        assert answer.status == 200, path
        assert answer.headers["Content-Type"] == "text/javascript; charset=utf-8", path
    css = await client.get("/style.css")
    assert css.headers["Content-Type"] == "text/css; charset=utf-8"
    head = await client.head("/xand0.html", headers={"Accept-Encoding": "identity"})
    assert head.status == 200
    xand0 = next(game for game in games if game.name == "xand0")
    assert int(head.headers["Content-Length"]) == len((xand0.pages / "xand0.html").read_bytes())


async def test_a_changed_file_gets_a_new_etag(aiohttp_client: MakeClient) -> None:
    client = await aiohttp_client(create_app(Config()))
    etag = (await client.get("/style.css")).headers["ETag"]
    stale = await client.get("/style.css", headers={"If-None-Match": '"not-this-one"'})
    assert stale.status == 200
    assert etag != (await client.get("/movewire.mjs")).headers["ETag"]


async def test_every_page_file_is_served_and_nothing_else(aiohttp_client: MakeClient) -> None:
    pages = load_pages()
    # Left out: what `npm ci` and `npm pack` make there (gitignored, never served), and the
    # package's declarations written by hand (page-kit.d.mts: .mts is never served).
    made = {"node_modules", "types"}
    every = {
        "/" + p.relative_to(PAGES_DIR).as_posix()
        for p in PAGES_DIR.rglob("*")
        if p.is_file()
        and p.relative_to(PAGES_DIR).parts[0] not in made
        and not p.name.endswith(".d.mts")
    }
    # relay/pages is the npm package `movewire` too: its manifests are not pages.
    manifests = {"/" + name for name in NOT_SERVED}
    assert manifests <= every
    files = every - manifests
    assert set(pages) == files | {"/"}
    client = await aiohttp_client(create_app(Config()))
    for path in files:
        assert (await client.get(path)).status == 200, path
    for path in manifests:
        assert (await client.get(path)).status == 404, path
    missing = await client.get("/nope.html")
    assert missing.status == 404
    assert (await missing.json())["error"]["code"] == "route/not_found"
    escape = await client.get("/../relay/config.py")
    assert escape.status == 404


async def test_with_pages_off_nothing_is_served_at_root_but_the_api_works(
    aiohttp_client: MakeClient,
) -> None:
    config, _ = parse_args(["--no-pages"])
    assert config.pages is False
    client = await aiohttp_client(create_app(config))
    for path in ("/", "/index.html", "/movewire.mjs"):
        answer = await client.get(path)
        assert answer.status == 404, path
        assert (await answer.json())["error"]["code"] == "route/not_found"
    assert (await client.get("/healthz")).status == 200
    seek = await client.post("/v1/seek", json={"game": "xand0"})
    assert seek.status == 201


def test_a_relay_process_serves_the_pages_through_its_front_with_revalidation() -> None:
    with RelayProcess("--hold", "5") as relay:
        with urllib.request.urlopen(relay.url + "/movewire.mjs", timeout=5) as answer:
            assert answer.headers["Content-Type"] == "text/javascript; charset=utf-8"
            assert answer.headers["Cache-Control"] == "no-cache"
            etag = answer.headers["ETag"]
            assert answer.read() == (PAGES_DIR / "movewire.mjs").read_bytes()
        again = urllib.request.Request(relay.url + "/movewire.mjs", headers={"If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError) as not_modified:
            urllib.request.urlopen(again, timeout=5)
        not_modified.value.close()
        assert not_modified.value.code == 304
    with RelayProcess("--hold", "5", "--no-pages") as bare:
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(bare.url + "/", timeout=5)
        missing.value.close()
        assert missing.value.code == 404


def fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """Returns the status, headers and raw body (never decompressed) of a GET."""
    named = {name.replace("_", "-"): value for name, value in headers.items()}
    request = urllib.request.Request(url, headers=named)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers), error.read()


@pytest.mark.parametrize("front", ["front", "--no-front"])
def test_pages_are_served_gzipped_to_clients_that_take_it_with_conditional_requests(
    front: str,
) -> None:
    options = ("--hold", "5") if front == "front" else ("--hold", "5", "--no-front")
    with RelayProcess(*options) as relay:
        images = (".svg", ".png")
        text = [path for path in load_pages() if path != "/" and not path.endswith(images)]
        packed = unpacked = 0
        for path in text:
            status, headers, body = fetch(relay.url + path, Accept_Encoding="gzip, deflate, br")
            assert status == 200, path
            assert headers.get("Content-Encoding") == "gzip", path
            assert headers["Vary"] == "Accept-Encoding", path
            assert gzip.decompress(body) == (PAGES_DIR / path[1:]).read_bytes(), path
            assert int(headers["Content-Length"]) == len(body), path
            packed, unpacked = packed + len(body), unpacked + len(gzip.decompress(body))
        assert packed * 2 < unpacked, (packed, unpacked)  # the text is less than half as long

        url = relay.url + "/style.css"
        status, plain, body = fetch(url)
        assert status == 200 and "Content-Encoding" not in plain
        assert plain["Vary"] == "Accept-Encoding"
        assert body == (PAGES_DIR / "style.css").read_bytes()
        refused = fetch(url, Accept_Encoding="gzip;q=0, identity")
        assert "Content-Encoding" not in refused[1] and refused[2] == body
        status, zipped, _ = fetch(url, Accept_Encoding="gzip")
        assert zipped["ETag"] != plain["ETag"]  # two representations, two strong tags
        # Each representation revalidates with its own tag, and only with it.
        again = fetch(url, Accept_Encoding="gzip", If_None_Match=zipped["ETag"])
        assert again[0] == 304 and again[2] == b""
        assert again[1]["ETag"] == zipped["ETag"] and again[1]["Vary"] == "Accept-Encoding"
        assert fetch(url, If_None_Match=plain["ETag"])[0] == 304
        assert fetch(url, Accept_Encoding="gzip", If_None_Match=plain["ETag"])[0] == 200
        assert fetch(url, If_None_Match=zipped["ETag"])[0] == 200

        # The protocol's JSON is left as it is.
        status, api, _ = fetch(relay.url + "/v1/openapi.json", Accept_Encoding="gzip")
        assert status == 200 and "Content-Encoding" not in api


def test_accept_encoding_is_read_with_its_weights() -> None:
    assert accepts_gzip("gzip")
    assert accepts_gzip("deflate, gzip;q=0.5, br")
    assert accepts_gzip("x-gzip")
    assert accepts_gzip("*")
    assert accepts_gzip("GZIP ; Q=1.0")
    assert not accepts_gzip("")
    assert not accepts_gzip("identity")
    assert not accepts_gzip("br, deflate")
    assert not accepts_gzip("gzip;q=0")
    assert not accepts_gzip("gzip;q=0.000, *")
    assert not accepts_gzip("*;q=0")
    assert not accepts_gzip("gzip;q=nope")


class _Head(HTMLParser):
    """Reads a page's meta description (html.parser, the standard library's HTML reader)."""

    def __init__(self) -> None:
        super().__init__()
        self.description: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "meta" and found.get("name") == "description":
            self.description = found.get("content")


ROOT = PAGES_DIR.parents[1]
HTML_PAGES = sorted(
    [*PAGES_DIR.glob("*.html"), *ROOT.glob("examples/*/page/*.html"),
     ROOT / "sdk" / "skeleton" / "page.html.tmpl"]
)  # fmt: skip
"""The relay's pages, the example games' and the one a new game's skeleton writes."""


@pytest.mark.parametrize("page", HTML_PAGES, ids=lambda path: path.name)
def test_every_page_says_what_it_is_for_to_search_engines(page: Path) -> None:
    head = _Head()
    head.feed(page.read_text())
    # A meta description of the length search engines show whole (about 50 to 160 characters).
    assert head.description is not None, f"{page} has no meta description"
    assert 50 <= len(head.description) <= 160, head.description

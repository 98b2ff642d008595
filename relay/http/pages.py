"""Serves the browser pages and the JavaScript host (relay/pages) at /, with cache headers,
gzipped for the clients that take it."""

from __future__ import annotations

import hashlib
import logging
import shutil
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from relay.core.games import Game, GamePackageError
from relay.http.encodings import accepts_gzip, gzipped
from relay.http.offline import OFFLINE_FILES, offline_files

__all__ = [
    "CACHE_CONTROL",
    "PAGES_DIR",
    "StaticFile",
    "add_offline_files",
    "add_pages",
    "check_pages",
    "check_pages_dirs",
    "copy_pages",
    "load_pages",
    "page_folders",
]

PAGES_DIR = Path(__file__).resolve().parents[1] / "pages"
"""Where the static files live, inside the installed package."""

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}
"""The files served, by suffix; anything else in the folder is left out."""

PACKED = frozenset({".png"})
"""The suffixes of files compressed already, never gzipped (nginx and Apache do not either)."""

NOT_SERVED = frozenset({"package.json", "package-lock.json", "tsconfig.json"})
"""Files of a folder's JavaScript package (relay/pages is the `movewire` package), never served:
the build's manifests, not pages."""

NOT_SERVED_FOLDERS = frozenset({"node_modules"})
"""Folders never served: a package's installed tools (`npm ci` in relay/pages puts TypeScript
and Vite there)."""

CACHE_CONTROL = "no-cache"
"""Every file is revalidated before use (an ETag makes that a 304): file names carry no
content hash, and a new page with an old cached module would break."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The pages load only their own scripts and styles and talk only to this origin."""

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
}

NOT_A_FOLDER = "pages folder {root!r} is not a folder"
OUTSIDE = "pages folder %r: %s leads outside the folder (a symlink), not served"
TAKEN = "{url} of pages folder {root!r} is served already (by {owner})"
GAME_TAKEN = "{source} cannot be served: its page file {url} is served already by {owner}"
RELAY = "the relay's own pages"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

log = logging.getLogger("relay")


@dataclass(frozen=True, slots=True)
class StaticFile:
    """One file ready to serve: its bytes, type and strong ETag, and its gzipped bytes (None
    when gzip does not make it smaller) with an ETag of their own."""

    body: bytes
    content_type: str
    etag: str
    gzipped: bytes | None = None
    gzip_etag: str = ""

    @classmethod
    def read(cls, path: Path) -> StaticFile:
        """Returns the file at path, typed by its suffix, with an ETag of its content, and
        gzipped once, now."""
        return cls.of(path.read_bytes(), path.suffix)

    @classmethod
    def of(cls, body: bytes, suffix: str) -> StaticFile:
        """Returns a file of these bytes, typed by suffix (".js"), with an ETag of its content,
        and gzipped once, now."""
        digest = hashlib.sha256(body).hexdigest()[:32]
        packed = None if suffix in PACKED else gzipped(body)
        # Each representation has a strong ETag of its own (RFC 9110, 8.8.3).
        gzip_etag = f'"{digest}-gzip"' if packed is not None else ""
        return cls(body, CONTENT_TYPES[suffix], f'"{digest}"', packed, gzip_etag)


def _servable(path: Path, root: Path) -> bool:
    """Returns whether a path under root is a file of a kind served, outside a package's tools."""
    if not path.is_file() or path.suffix not in CONTENT_TYPES or path.name.startswith("."):
        return False
    parts = path.relative_to(root).parts
    return path.name not in NOT_SERVED and NOT_SERVED_FOLDERS.isdisjoint(parts[:-1])


def _files(root: Path, warn: bool) -> Iterator[Path]:
    """Yields the servable files under root; a file that resolves outside root (a symlink
    out of the folder) is left out, with a warning if warn."""
    inside = root.resolve()
    for path in sorted(root.rglob("*")):
        if _servable(path, root):
            if not path.resolve().is_relative_to(inside):
                if warn:
                    log.warning(OUTSIDE, str(root), path.relative_to(root).as_posix())
                continue
            yield path


def load_pages(root: Path = PAGES_DIR, warn: bool = True) -> dict[str, StaticFile]:
    """Returns every servable file under root by its URL path; '/' is index.html. A file that
    leads outside root (a symlink) is never served (logged as a warning if warn)."""
    pages = {
        "/" + path.relative_to(root).as_posix(): StaticFile.read(path)
        for path in _files(root, warn)
    }
    if "/index.html" in pages:
        pages["/"] = pages["/index.html"]
    return pages


def _urls(root: Path) -> set[str]:
    """Returns the URL paths of the servable files under root, but '/', reading none."""
    return {"/" + path.relative_to(root).as_posix() for path in _files(root, False)}


def _matches(if_none_match: str, etag: str) -> bool:
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


def _handler(page: StaticFile) -> Handler:
    headers = {"Cache-Control": CACHE_CONTROL, "ETag": page.etag, **SECURITY_HEADERS}
    if page.gzipped is not None:
        # Caches keep the two representations apart.
        headers["Vary"] = "Accept-Encoding"
    packed = {**headers, "ETag": page.gzip_etag}

    async def serve(request: web.Request) -> web.Response:
        body, chosen, coded = page.body, headers, {}
        if page.gzipped is not None and accepts_gzip(request.headers.get("Accept-Encoding", "")):
            body, chosen, coded = page.gzipped, packed, {"Content-Encoding": "gzip"}
        if _matches(request.headers.get("If-None-Match", ""), chosen["ETag"]):
            return web.Response(status=304, headers=chosen)
        typed = {**chosen, **coded, "Content-Type": page.content_type}
        return web.Response(body=body, headers=typed)

    return serve


def page_folders(games: Iterable[Game], folders: Iterable[str]) -> list[tuple[Path, str]]:
    """Returns the folders served at / after the relay's own, each with who it is for
    messages: each game's page folder, by name, then each --pages-dir folder."""
    found = [(game.pages, game.source) for game in sorted(games, key=lambda game: game.name)]
    return found + [(Path(folder), f"pages folder {folder!r}") for folder in folders]


def check_pages(games: Iterable[Game], folders: Iterable[str] = ()) -> None:
    """Raises ValueError unless each pages folder is one, and no file of a game package or a
    folder is served already by the relay, a game package or an earlier folder; a game
    package's clash is a GamePackageError naming both sides."""
    taken = dict.fromkeys(_urls(PAGES_DIR) | {"/", OFFLINE_FILES}, RELAY)
    for game in sorted(games, key=lambda game: game.name):
        urls = _urls(game.pages)
        if urls & taken.keys():
            url = min(urls & taken.keys())
            owner = taken[url]
            raise GamePackageError(GAME_TAKEN.format(source=game.source, url=url, owner=owner))
        taken |= dict.fromkeys(urls, game.source)
    for folder in folders:
        root = Path(folder)
        if not root.is_dir():
            raise ValueError(NOT_A_FOLDER.format(root=folder))
        urls = _urls(root)
        if urls & taken.keys():
            url = min(urls & taken.keys())
            raise ValueError(TAKEN.format(url=url, root=folder, owner=taken[url]))
        taken |= dict.fromkeys(urls, f"pages folder {folder!r}")


def check_pages_dirs(folders: Iterable[str]) -> None:
    """Raises ValueError unless each folder is one and serves no page another already does."""
    check_pages((), folders)


def copy_pages(target: Path, games: Iterable[Game] = (), folders: Iterable[str] = ()) -> int:
    """Copies every file the relay serves at / into target (made if missing), each at its URL
    path: its own pages, each game's page folder, each pages folder; for nginx or Apache to
    serve with --no-pages, and the service worker's list of them (offline-files.js). Returns how
    many files it wrote (a file already there is replaced)."""
    copied: dict[str, str] = {}
    for root in [PAGES_DIR, *(folder for folder, _ in page_folders(games, folders))]:
        for path in _files(root, warn=True):
            url = path.relative_to(root).as_posix()
            if url in copied:
                continue  # served by an earlier folder (check_pages refuses such a clash)
            (target / url).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target / url)
            copied[url] = StaticFile.read(path).etag
    listed = offline_files({f"/{url}": etag for url, etag in copied.items()})
    (target / OFFLINE_FILES.removeprefix("/")).write_bytes(listed)
    return len(copied) + 1


def add_pages(app: web.Application, root: Path = PAGES_DIR) -> dict[str, StaticFile]:
    """Adds a GET (and HEAD) route for each page, read once now; unknown paths stay 404.
    Returns the pages added, by URL path.

    A page whose path is served already (see check_pages_dirs) is left to the first folder."""
    taken = {resource.canonical for resource in app.router.resources()}
    added = {url: page for url, page in load_pages(root).items() if url not in taken}
    for url, page in added.items():
        app.router.add_get(url, _handler(page))
    return added


def add_offline_files(app: web.Application, pages: dict[str, StaticFile]) -> None:
    """Adds the route of the service worker's list of `pages` (all those served at /), which
    it keeps for offline use (relay/http/offline.py)."""
    etags = {url: page.etag for url, page in pages.items()}
    app.router.add_get(OFFLINE_FILES, _handler(StaticFile.of(offline_files(etags), ".js")))

"""The games a relay hosts: each installed game package read by its fields (the relay never
imports the SDK that defines them), checked, and described for `GET /v1/games`.

A game package is any object with the fields of `sdk.package.GamePackage`; `read_game` turns
one into a `Game`, or refuses it with a `GamePackageError` that names the package."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import orjson

__all__ = [
    "GAME_NAME",
    "Game",
    "GamePackageError",
    "check_names",
    "games_json",
    "read_game",
]

GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""A game package's name: its game key on the wire, its entry point's name and the stem of its
page: 1 to 32 lowercase letters, digits and '_', starting with a letter."""

TITLE_MOST = 64
"""Characters a game's title may have."""
SUMMARY_MOST = 300
"""Characters a game's summary may have."""

NOT_A_PACKAGE = "is not a game package: its {field!r} must be {kind}, not {value!r}"
BAD_NAME = (
    "is not a game package: its name {name!r} must be 1 to 32 lowercase letters, digits "
    "and '_', starting with a letter"
)
OTHER_NAME = "names itself {name!r}: a game package's name must be its entry point's"
NO_FOLDER = "has no page folder: {pages} is not a folder"
NO_FILE = "has no {what} {file!r} in its page folder {pages}"
BAD_FILE = "names its {what} {file!r}: it must be a file name inside its page folder"
TWICE = "game {name!r} is installed twice: by {first} and by {second}"


class GamePackageError(ValueError):
    """Raised when an installed game package cannot be served: the message names it."""


@dataclass(frozen=True, slots=True)
class Game:
    """A game the relay hosts, as read from its package."""

    name: str
    """Its game key, and its entry point's name."""
    title: str
    summary: str
    pages: Path
    """The folder of its page's files, served at the relay's root."""
    page: str
    """Its page, relative to the relay's root: 'connect4.html'."""
    view: str
    """Its page module the shared pages import to draw its board, or ''."""
    computer: bool
    """Whether its page offers a game against the computer."""
    referee: Callable[[], object] | None
    """Makes its referee, or None."""
    source: str
    """Where it comes from, for messages: "game package 'connect4' (movewire 0.1.0)"."""

    def json(self) -> dict[str, object]:
        """Returns its entry in `GET /v1/games`."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "page": self.page,
            "view": self.view or None,
            "computer": self.computer,
            "referee": self.referee is not None,
        }


def source_of(name: str, dist: str = "") -> str:
    """Returns how messages name a game package: "game package 'dots' (movewire 0.1.0)"."""
    return f"game package {name!r}" + (f" ({dist})" if dist else "")


def _field(source: str, value: object, field: str, kind: type, words: str) -> object:
    found = getattr(value, field, None)
    if not isinstance(found, kind) or (kind is int and isinstance(found, bool)):
        raise GamePackageError(
            f"{source} " + NOT_A_PACKAGE.format(field=field, kind=words, value=found)
        )
    return found


def _text(source: str, value: object, field: str, most: int) -> str:
    found = _field(source, value, field, str, f"text of 1 to {most} characters")
    assert isinstance(found, str)
    if not 0 < len(found.strip()) <= most:
        words = f"text of 1 to {most} characters"
        raise GamePackageError(
            f"{source} " + NOT_A_PACKAGE.format(field=field, kind=words, value=found)
        )
    return found.strip()


def _page_file(source: str, pages: Path, file: str, what: str) -> str:
    """Returns file, a page file's name inside pages, checked to be there."""
    path = PurePosixPath(file)
    if not file or path.is_absolute() or ".." in path.parts or "\\" in file:
        raise GamePackageError(f"{source} " + BAD_FILE.format(what=what, file=file))
    if not (pages / file).is_file():
        raise GamePackageError(f"{source} " + NO_FILE.format(what=what, file=file, pages=pages))
    return path.as_posix()


def read_game(entry: str, value: object, dist: str = "") -> Game:
    """Returns the game of the package `value`, found by the entry point named `entry` (of the
    distribution `dist`, for messages). Raises GamePackageError, naming the package, when its
    fields are not a game package's, its name is not `entry` or not a game name, or its page
    folder, page or view is missing."""
    source = source_of(entry, dist)
    name = _field(source, value, "name", str, "text")
    assert isinstance(name, str)
    if GAME_NAME.fullmatch(name) is None:
        raise GamePackageError(f"{source} " + BAD_NAME.format(name=name))
    if name != entry:
        raise GamePackageError(f"{source} " + OTHER_NAME.format(name=name))
    title = _text(source, value, "title", TITLE_MOST)
    summary = _text(source, value, "summary", SUMMARY_MOST)
    pages = _field(source, value, "pages", Path, "a folder (a pathlib.Path)")
    assert isinstance(pages, Path)
    if not pages.is_dir():
        raise GamePackageError(f"{source} " + NO_FOLDER.format(pages=pages))
    page = _field(source, value, "page", str, "text (a file name, or '' for <name>.html)")
    assert isinstance(page, str)
    page = _page_file(source, pages, page or f"{name}.html", "page")
    view = _field(source, value, "view", str, "text (a module's file name, or '')")
    assert isinstance(view, str)
    if view:
        view = _page_file(source, pages, view, "view")
    computer = _field(source, value, "computer", bool, "True or False")
    assert isinstance(computer, bool)
    referee = getattr(value, "referee", None)
    if referee is not None and not callable(referee):
        words = "None or a callable that makes its referee"
        raise GamePackageError(
            f"{source} " + NOT_A_PACKAGE.format(field="referee", kind=words, value=referee)
        )
    return Game(name, title, summary, pages, page, view, computer, referee, source)


def check_names(games: Iterable[Game]) -> None:
    """Raises GamePackageError when two games have one name."""
    seen: dict[str, Game] = {}
    for game in games:
        if game.name in seen:
            first = seen[game.name].source
            raise GamePackageError(TWICE.format(name=game.name, first=first, second=game.source))
        seen[game.name] = game


def games_json(games: Iterable[Game], refereed: Collection[str] = ()) -> bytes:
    """Returns the body of `GET /v1/games`: every game hosted, by name, each saying whether
    this relay runs its referee (refereed: the games whose referee the host turned on)."""
    ordered = sorted(games, key=lambda g: g.name)
    return orjson.dumps(
        {"games": [game.json() | {"refereed": game.name in refereed} for game in ordered]}
    )

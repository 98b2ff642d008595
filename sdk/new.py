"""`python -m sdk.new NAME --dir PATH`: writes the skeleton of a new game, playable at once.

The skeleton is a game package, pip-installable: a rules stub, a Game and a bot (random legal
moves), its referee, a terminal client, a browser page on the page kit (the rules in JavaScript,
a view, its `GAME` and `runPage(GAME)`) in the package's page folder, the `GamePackage` a relay
reads and the pyproject.toml whose entry point names it, and tests that play through a real
relay running the referee with sdk.testing (a whole game, a forged win, an illegal move, a crash
and resume, a takeback). `python -m pytest PATH` passes on it as written; `pip install PATH`
beside a relay, and the relay serves and lists it.
"""

from __future__ import annotations

import argparse
import keyword
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["SKELETON", "files", "main", "write"]

SKELETON = Path(__file__).with_name("skeleton")
"""The templates the skeleton is made from."""

BAD_NAME = (
    "{name!r} is not a game name: use 1 to 32 lowercase letters, digits and '_', starting "
    "with a letter, and not a Python keyword or module name"
)
EXISTS = "{path} exists already: choose another --dir (nothing was written)"
SERVED = (
    "{name!r} cannot be a game name: its page file {file} is one of the relay's own, which the "
    "relay serves at the same place (choose another name)"
)
RELAY_PAGES = Path(__file__).resolve().parents[1] / "relay" / "pages"
"""The page kit the relay serves at its root, beside a game's page folder (read, not imported)."""
TAKEN = {"sdk", "relay", "examples", "movewire_games", "test", "tests", "web"}
"""Names a game's package must not take: they would hide another package."""


def files(name: str, title: str) -> dict[str, str]:
    """Returns the skeleton's files, by path relative to its folder, for a game `name`."""
    words = {
        "__NAME__": name,
        "__CLASS__": "".join(part.capitalize() for part in name.split("_")),
        "__TITLE__": title,
    }
    layout = {
        f"{name}/__init__.py": "init.py.tmpl",
        f"{name}/rules.py": "rules.py.tmpl",
        f"{name}/game.py": "game.py.tmpl",
        f"{name}/referee.py": "referee.py.tmpl",
        f"{name}/__main__.py": "main.py.tmpl",
        f"{name}/page/{name}.html": "page.html.tmpl",
        f"{name}/page/{name}.mjs": "rules.mjs.tmpl",
        f"{name}/page/{name}-view.mjs": "view.mjs.tmpl",
        f"{name}/page/{name}-game.mjs": "game.mjs.tmpl",
        f"{name}/page/{name}-page.mjs": "page.mjs.tmpl",
        f"{name}/page/{name}.css": "page.css.tmpl",
        f"test_{name}.py": "test.py.tmpl",
        "conftest.py": "conftest.py.tmpl",
        "pyproject.toml": "pyproject.toml.tmpl",
        "README.md": "readme.md.tmpl",
    }
    made = {}
    for path, template in layout.items():
        text = (SKELETON / template).read_text(encoding="utf-8")
        for word, value in words.items():
            text = text.replace(word, value)
        made[path] = text
    return made


def is_game_name(name: str) -> bool:
    """Returns whether name can be a game's key and its package's name."""
    return (
        re.fullmatch(r"[a-z][a-z0-9_]{0,31}", name) is not None
        and not keyword.iskeyword(name)
        and name not in sys.stdlib_module_names
        and name not in TAKEN
    )


def write(name: str, folder: Path, title: str | None = None) -> list[Path]:
    """Writes the skeleton of game `name` into folder (made if missing); returns the files.

    Raises ValueError for a bad name, a name whose page files the relay serves already
    (`table`: table.mjs), or when any of the files exists already: nothing is overwritten,
    and nothing is written at all then.
    """
    if not is_game_name(name):
        raise ValueError(BAD_NAME.format(name=name))
    made = files(name, title or name.replace("_", " ").capitalize())
    for relative in made:
        page_file = relative.removeprefix(f"{name}/page/")
        if page_file != relative and (RELAY_PAGES / page_file).exists():
            raise ValueError(SERVED.format(name=name, file=page_file))
    targets = {folder / path: text for path, text in made.items()}
    for path in targets:
        if path.exists():
            raise ValueError(EXISTS.format(path=path))
    for path, text in targets.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(targets)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit code (2 for a bad name or an existing file)."""
    parser = argparse.ArgumentParser(prog="python -m sdk.new", description=__doc__.splitlines()[0])
    parser.add_argument("name", help="the game's name: its relay key and Python package")
    parser.add_argument("--dir", required=True, type=Path, help="the folder to write it in")
    parser.add_argument("--title", help="the game's name for people (default: from NAME)")
    args = parser.parse_args(argv)
    try:
        written = write(args.name, args.dir, args.title)
    except ValueError as exc:
        parser.error(str(exc))
    for path in written:
        print(f"wrote {path}")
    folder = shlex.quote(as_path(args.dir))
    print(f"next: cd {folder} && python -m pytest  (and see README.md there)")
    print(f"to host it: pip install {folder}  (beside the relay, which then serves and lists it)")
    return 0


def as_path(folder: Path) -> str:
    """Returns folder as pip reads a path, never as a package's name: 'morris' is a package on
    the index, './morris' the folder."""
    text = str(folder)
    return text if folder.is_absolute() or text.startswith(("./", "../")) else f"./{text}"


if __name__ == "__main__":
    raise SystemExit(main())

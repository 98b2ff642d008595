"""The page kit as public API: its declared contracts (relay/pages/page-kit.d.mts, the package's
`movewire/page`) fit the examples' and the skeleton's GAMEs under tsc, name the fields the kit's
modules read, and are the lists docs/javascript.md gives."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from sdk.new import files, write
from tests.support.js_package import PACKAGE, ROOT, tool

DECLARED = PACKAGE / "page-kit.d.mts"
DOC = ROOT / "docs" / "javascript.md"

CHECK = """
import type { PageGame } from "movewire/page";
import { BoardGame, runPage } from "movewire/page";
import { GAME as connect4 } from "./page/connect4-game.mjs";
import { GAME as dots } from "./page/dots-game.mjs";
import { GAME as stones } from "./page/stones-game.mjs";
import { GAME as xand0 } from "./page/xand0-game.mjs";

export const games: PageGame[] = [connect4, dots, stones, xand0];
export const run: (page: PageGame) => void = runPage;
declare const game: BoardGame<number>;
export const playable: boolean = game.canPlay(2) && game.board.turn === game.side;
// @ts-expect-error: a GAME without its rules and its view is not one
export const bad: PageGame = { key: "x", version: "1", title: "X", sides: ["X"], where: () => "" };
"""
"""A TypeScript module that holds the games' page modules, as JavaScript, to the declared types."""

TSCONFIG = {
    "compilerOptions": {
        "target": "es2022",
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "lib": ["es2023", "dom", "dom.iterable"],
        "types": [],
        "allowJs": True,
        "checkJs": False,  # the modules' own types are inferred; only the check is checked
        "noEmit": True,
        "strict": True,
        "skipLibCheck": False,
    },
    "files": ["check.mts"],
}


def served(folder: Path) -> Path:
    """Lays out the pages as a relay serves them, the skeleton's with the kit and the examples';
    returns the folder."""
    pages = folder / "page"
    pages.mkdir()
    for module in PACKAGE.glob("*.mjs"):
        shutil.copy(module, pages)
    for module in ROOT.glob("examples/*/page/*.mjs"):
        shutil.copy(module, pages)
    write("stones", folder / "skeleton", "Stones")
    for module in (folder / "skeleton" / "stones" / "page").glob("*.mjs"):
        shutil.copy(module, pages)
    return folder


def test_the_games_page_modules_fit_the_declared_contracts(js_tools: Path, tmp_path: Path) -> None:
    folder = served(tmp_path)
    package = folder / "node_modules" / "movewire"
    package.mkdir(parents=True)
    shutil.copy(PACKAGE / "package.json", package)
    shutil.copy(DECLARED, package)
    (folder / "check.mts").write_text(CHECK)
    (folder / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    run = subprocess.run(
        [tool("tsc"), "-p", "tsconfig.json"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def members(name: str) -> set[str]:
    """Returns the fields and methods the declaration gives `name` (an interface or a class)."""
    body = re.search(
        rf"^export (?:interface|class) {name}\b[^{{]*\{{\n(.*?)^\}}",
        DECLARED.read_text(),
        re.M | re.S,
    )
    assert body is not None, name
    found = re.findall(r"^  (?:readonly )?(\w+)\??[(:<]", body.group(1), re.M)
    return set(found) - {"constructor"}


def doc_list(title: str) -> set[str]:
    """Returns the names a list of the doc's page kit section gives: each item's first `code`."""
    section = DOC.read_text().split("## The page kit's contracts", 1)[1].split("\n## ", 1)[0]
    part = section.split(f"**{title}.**", 1)[1].split("\n\n", 2)[1]
    return set(re.findall(r"^- `([\w.]+)", part, re.M))


def test_the_doc_lists_what_the_types_declare() -> None:
    assert doc_list("GAME's fields") == members("PageGame")
    assert doc_list("The rules module") == {
        *(f"Board.{name}" for name in ("empty",)),
        *members("Rules") - {"Board"},
        *members("Position"),
    }
    assert doc_list("The view") == {"createView", *members("BoardView"), *members("ViewActions")}
    assert doc_list("What a view draws") == members("Shown") | members("ViewChange")


def reads(pattern: str, *modules: str) -> set[str]:
    """Returns the names the kit's modules read through `pattern` (comments left out)."""
    found: set[str] = set()
    for module in modules:
        code = re.sub(r"^\s*(//|\*|/\*\*).*$", "", (PACKAGE / module).read_text(), flags=re.M)
        found |= set(re.findall(pattern, code))
    return found


def test_the_declared_fields_are_those_the_kit_reads() -> None:
    play = [path.name for path in PACKAGE.glob("play*.mjs")]
    read = reads(r"(?:\bpage|#page|parts\.page)\.(\w+)", *play)
    read |= reads(r"\bgame\.(\w+)", "replay-page.mjs") - {"name"}  # `name`: GET /v1/games'
    assert read == members("PageGame")
    rules = reads(r"\brules\.(\w+)", "board-game.mjs", "replay.mjs", "finished.mjs")
    assert rules == members("Rules")
    boards = reads(r"\bboard\.(\w+)|\bBoard\.(\w+)", "board-game.mjs", "replay.mjs")
    assert {name for pair in boards for name in pair if name} == {"empty", *members("Position")}


def test_the_docs_example_is_the_page_sdk_new_writes() -> None:
    written = files("mygame", "My game")
    blocks = re.findall(r"<!-- page-kit: (\S+) -->\n```\w+\n(.*?)```", DOC.read_text(), re.S)
    assert [path for path, _ in blocks] == [
        "mygame/page/mygame.html",
        "mygame/page/mygame-page.mjs",
        "mygame/page/mygame-game.mjs",
        "mygame/page/mygame-view.mjs",
        "mygame/page/mygame.mjs",
    ]
    for path, text in blocks:
        assert text == written[path], path


def test_what_the_types_declare_of_board_game_is_in_board_game_mjs_or_its_game() -> None:
    code = (PACKAGE / "board-game.mjs").read_text() + (PACKAGE / "game.mjs").read_text()
    for name in members("BoardGame"):
        kept = re.search(rf"this\.{name} =|^  (?:get )?{name}\(", code, re.M)
        assert kept is not None, name

"""`python -m sdk.new`: the skeleton's own tests pass as written, its bot and its terminal
client play through a real relay, and bad names or existing files are refused."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from sdk.new import files, main, write
from tests.support.components import require_binary
from tests.support.processes import run_together
from tests.support.relay_process import ROOT

NAME = "stones"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}  # the checkout's sdk, as an install would give


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Returns a folder holding a new game's skeleton, made by the command line."""
    folder = tmp_path_factory.mktemp("new") / "stones-game"
    made = subprocess.run(
        [sys.executable, "-m", "sdk.new", NAME, "--dir", str(folder), "--title", "Stones"],
        cwd=folder.parent,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    assert f"wrote {folder / NAME / 'game.py'}" in made.stdout
    return folder


def test_the_skeleton_holds_rules_game_client_test_and_page(skeleton: Path) -> None:
    written = sorted(p.relative_to(skeleton).as_posix() for p in skeleton.rglob("*") if p.is_file())
    assert written == [
        "README.md",
        "conftest.py",
        "pyproject.toml",
        f"{NAME}/__init__.py",
        f"{NAME}/__main__.py",
        f"{NAME}/game.py",
        f"{NAME}/page/{NAME}-game.mjs",
        f"{NAME}/page/{NAME}-page.mjs",
        f"{NAME}/page/{NAME}-view.mjs",
        f"{NAME}/page/{NAME}.css",
        f"{NAME}/page/{NAME}.html",
        f"{NAME}/page/{NAME}.mjs",
        f"{NAME}/referee.py",
        f"{NAME}/rules.py",
        f"test_{NAME}.py",
    ]
    assert "class StonesBot(StonesGame)" in (skeleton / NAME / "game.py").read_text()
    page = (skeleton / NAME / "page" / f"{NAME}-page.mjs").read_text()
    assert 'from "./play.mjs"' in page and "runPage(GAME);" in page  # the page kit's page
    project = tomllib.loads((skeleton / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["movewire.games"] == {NAME: f"{NAME}:PACKAGE"}


def test_the_skeleton_is_a_game_package_the_relay_reads(skeleton: Path) -> None:
    code = (
        "from relay.core.games import read_game; import stones; "
        "game = read_game('stones', stones.PACKAGE, 'stones 0.1.0'); "
        "print(game.title, game.page, game.pages, type(game.referee()).__name__)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=skeleton,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [
        "Stones", "stones.html", str(skeleton / NAME / "page"), "StonesReferee"
    ]  # fmt: skip


@pytest.mark.timeout(120)
def test_pytest_passes_on_the_skeleton_as_written(skeleton: Path, tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", str(skeleton)],
        cwd=tmp_path,  # anywhere: the command names the folder
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "9 passed" in run.stdout  # the page's rules too: node is there
    for test in (
        "test_two_bots_play_a_whole_game_the_referee_ends",
        "test_a_forged_win_is_refused",
        "test_an_illegal_move_is_caught_as_a_dispute",
        "test_a_crashed_side_comes_back_and_the_game_goes_on",
        "test_a_move_is_taken_back_when_both_agree",
    ):
        assert f"def {test}(" in (skeleton / f"test_{NAME}.py").read_text()


AGREE = """
import { readFileSync } from "node:fs";
import * as rules from "./stones.mjs";
const { games, texts, pushes } = JSON.parse(readFileSync(0, "utf8"));
const words = (act) => { try { act(); return null; } catch (error) { return error.message; } };
process.stdout.write(JSON.stringify({
  games: games.map((moves) => {
    const board = rules.Board.fromMoves(moves);
    const outcome = board.outcome();
    return [board.left, board.turn, outcome === null ? null : outcome.winner, board.legalMoves()];
  }),
  texts: texts.map((text) => words(() => rules.parseMove(text))),
  pushes: pushes.map(([moves, move]) => words(() => rules.Board.fromMoves(moves).push(move))),
}));
"""


def test_the_skeleton_page_rules_agree_with_its_python_rules(
    skeleton: Path, tmp_path: Path
) -> None:
    node = require_binary("node", "nodejs")
    # The page folder as the relay serves it: the kit's modules beside the game's own.
    for name in ("board-rules.mjs", "errors.mjs"):
        shutil.copy(ROOT / "relay" / "pages" / name, tmp_path / name)
    shutil.copy(skeleton / NAME / "page" / f"{NAME}.mjs", tmp_path / f"{NAME}.mjs")
    rules = load_rules(skeleton)
    rng = random.Random(33)
    games, pushes = [], []
    for _ in range(100):
        board, moves = rules.Board(), list[str]()
        while board.winner() is None and rng.random() < 0.9:
            move = rng.choice(board.legal_moves())
            board, moves = board.push(move), [*moves, rules.format_move(move)]
        games.append((moves, [board.left, board.turn, board.winner(), board.legal_moves()]))
        pushes.append((moves, rng.randint(1, 4)))
    texts = ["0", "1", "3", "4", "9", "12", "x", "", " 2", "-1", "1.0", "it's"]
    asked = {"games": [m for m, _ in games], "texts": texts, "pushes": pushes}
    run = subprocess.run(
        [node, "--input-type=module", "-e", AGREE], cwd=tmp_path, input=json.dumps(asked),
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    seen = json.loads(run.stdout)
    assert seen["games"] == [expected for _, expected in games]
    assert seen["texts"] == [words(rules.parse_move, text) for text in texts]
    wanted = [words(rules.Board.push, replay(rules, moves), move) for moves, move in pushes]
    assert seen["pushes"] == wanted


def load_rules(skeleton: Path) -> Any:
    """Returns the skeleton's Python rules module, imported from its file."""
    spec = importlib.util.spec_from_file_location(f"{NAME}_rules", skeleton / NAME / "rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up by name
    spec.loader.exec_module(module)
    return module


def replay(rules: Any, moves: list[str]) -> Any:
    """Returns the position the move strings reach from the start."""
    board = rules.Board()
    for move in moves:
        board = board.push(rules.parse_move(move))
    return board


def words(act: Callable[..., object], *args: object) -> str | None:
    """Returns the message of the error act(*args) raises, or None when it raises none."""
    try:
        act(*args)
    except Exception as error:  # any error's words are compared
        return str(error)
    return None


DISPUTES = """
from sdk import IllegalMoveError, MoveRejected, State
from stones import game, rules
from tests.support.desk import DeskHost

assert rules.IllegalMoveError is IllegalMoveError  # the SDK's one error, not its own
assert issubclass(IllegalMoveError, ValueError)


def rejected(move):
    side = game.StonesGame(DeskHost(State.PLAYING_WAIT_MOVE), False)
    try:
        side.receive_move(move)
    except MoveRejected as rejection:
        assert side.board == rules.Board(), side.board
        return rejection.reason
    raise AssertionError(f"{move!r} was taken")


assert rejected("9") == "a move is a number of stones, 1 to 3, not '9'"
for error in (ValueError, KeyError, RuntimeError):
    def parse_move(text, error=error):
        raise error("no such pile")

    game.parse_move = parse_move  # rules of one's own, whatever they raise
    assert "no such pile" in rejected("1"), rejected("1")
print("disputed")
"""


def test_a_skeleton_game_disputes_what_its_rules_raise_on_with_their_words(
    skeleton: Path,
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", DISPUTES], cwd=skeleton,
        env={**ENV, "PYTHONPATH": f"{skeleton}:{ROOT}"},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.stdout.strip() == "disputed", run.stderr


def client(skeleton: Path, relay: str, room: str, *more: str) -> list[str]:
    return [sys.executable, "-m", NAME, "--relay", relay, "--room", room, *more]


@pytest.mark.timeout(60)
def test_two_skeleton_bots_play_a_match_through_a_real_relay(
    skeleton: Path, relay_url: str
) -> None:
    room = "new-" + secrets.token_hex(6)
    command = client(skeleton, relay_url, room, "--bot")
    ends = run_together([command, command], skeleton, ENV)
    assert [end.returncode for end in ends] == [0, 0], ends
    # Each is told the result in the referee's words, which the ender's game sent (end_words).
    assert sorted(end.stdout.strip() for end in ends) == [
        "You lose: took the last stone.\nStones: lost (agreed)",
        "You win: took the last stone.\nStones: won (agreed)",
    ]


@pytest.fixture
def bot(skeleton: Path, relay_url: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Starts a skeleton bot in a fresh room; returns the room and the process."""
    room = "new-" + secrets.token_hex(6)
    process = subprocess.Popen(
        client(skeleton, relay_url, room, "--bot"),
        cwd=skeleton,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield room, process
    finally:
        process.kill()
        process.communicate(timeout=10)


@pytest.mark.timeout(60)
def test_a_person_plays_the_skeleton_at_the_terminal(
    skeleton: Path, relay_url: str, bot: tuple[str, subprocess.Popen[str]]
) -> None:
    room, _ = bot
    command = client(skeleton, relay_url, room)
    person = pexpect.spawn(
        command[0], command[1:], cwd=str(skeleton), env=ENV, encoding="utf-8", timeout=20
    )
    try:
        person.expect(r"Take 1 to \d: ")
        person.sendline("7")
        person.expect_exact("a move is a number of stones, 1 to 3, not '7'; try again.")
        while person.expect([r"Take 1 to \d: ", r"Stones: (won|lost) \(agreed\)"]) == 0:
            person.sendline("1")
        person.expect(pexpect.EOF)
    finally:
        person.close(force=True)
    assert person.exitstatus == 0


@pytest.mark.parametrize("name", ["Stones", "9lives", "class", "json", "sdk", "x" * 33, "a-b"])
def test_a_bad_name_is_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="is not a game name"):
        write(name, tmp_path)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("name", "file"), [("table", "table.mjs"), ("board", "board-game.mjs")])
def test_a_name_whose_page_files_the_relay_serves_is_refused(
    name: str, file: str, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match=f"its page file {file} is one of the relay's own"):
        write(name, tmp_path)
    assert not list(tmp_path.iterdir())


def test_nothing_is_overwritten(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("mine")
    run = subprocess.run(
        [sys.executable, "-m", "sdk.new", NAME, "--dir", str(tmp_path)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert "README.md exists already" in run.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["README.md"]
    assert (tmp_path / "README.md").read_text() == "mine"


def test_the_guide_shows_the_pyproject_that_sdk_new_writes() -> None:
    guide = (ROOT / "docs" / "ship-your-game.md").read_text()
    block = re.search(r"<!-- example: ship-pyproject -->\n```toml\n(.*?)```", guide, re.S)
    assert block is not None
    assert block.group(1) == files("mygame", "My game")["pyproject.toml"]


def test_the_guide_shows_the_referee_that_sdk_new_writes(tmp_path: Path) -> None:
    guide = (ROOT / "docs" / "ship-your-game.md").read_text()
    block = re.search(r"<!-- referee: mygame -->\n```python\n(.*?)```", guide, re.S)
    assert block is not None
    assert block.group(1) == files("mygame", "My game")["mygame/referee.py"]
    write("mygame", tmp_path)
    # In a process of its own: the package it imports is the one just written.
    check = """
from sdk.referee import Illegal, Legal, Over, Play
from mygame.referee import MygameReferee

judge = MygameReferee().judge
won = [Play(2 + i, i % 2, "3") for i in range(7)]  # 21 stones, 3 at a time: seat 0 takes the last
assert judge(won) == Over(8, 0, "took the last stone"), judge(won)
assert judge(won[:4]) == Legal()
bad = Illegal(4, 0, "a move is a number of stones, 1 to 3, not '4'")
assert judge([*won[:2], Play(4, 0, "4")]) == bad
assert judge([Play(2, 1, None)]) == Illegal(2, 1, "a pass, with stones to take")
print("judged")
"""
    run = subprocess.run(
        [sys.executable, "-c", check], cwd=tmp_path,
        env={**ENV, "PYTHONPATH": f"{tmp_path}:{ROOT}"},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.stdout.strip() == "judged", run.stderr


@pytest.mark.parametrize("folder", ["morris", "my games/morris"])
def test_the_install_hint_names_the_folder_not_a_package_of_the_index(
    folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["morris", "--dir", folder]) == 0
    hint = next(line for line in capsys.readouterr().out.splitlines() if "to host it" in line)
    named = shlex.split(hint.split("pip install ", 1)[1].split("  (", 1)[0])
    assert len(named) == 1 and named[0].startswith("./"), hint  # pip reads './x' as a path
    assert (tmp_path / named[0] / "pyproject.toml").is_file()

"""Game packages: the relay reads every installed one at start (entry points in the group
`movewire.games`), serves its page folder at its root and lists it at GET /v1/games; a broken
one stops the relay from starting, with a message naming it.

The packages here are installed the way pip installs one: a `*.dist-info` folder with its
`entry_points.txt`, on a folder put on the relay's PYTHONPATH."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.support.game_packages import PAGE, install, package_module, relay_env
from tests.support.relay_process import ROOT, RelayProcess, quick_flags

EXAMPLES = {"xand0": "X and 0", "connect4": "Connect Four", "dots": "Dots and Boxes"}


def start_refused(site: Path) -> str:
    """Starts a relay that sees site's packages; returns what it said when it refused to start."""
    run = subprocess.run(
        [sys.executable, "-m", "relay", "--port", "0"],
        cwd=ROOT,
        env=relay_env(site),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2, run
    return run.stderr


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read()


def test_the_example_games_are_installed_listed_and_their_pages_served() -> None:
    with RelayProcess(*quick_flags()) as relay:
        status, body = get(f"{relay.url}/v1/games")
        assert status == 200
        games = {game["name"]: game for game in json.loads(body)["games"]}
        assert {name: game["title"] for name, game in games.items()} == EXAMPLES
        assert games["connect4"] == {
            "name": "connect4",
            "title": "Connect Four",
            "summary": "Drop pieces into the columns: four in a row wins.",
            "page": "connect4.html",
            "view": "connect4-game.mjs",
            "computer": True,
            "referee": games["connect4"]["referee"],  # another part of the relay's work
            "refereed": False,  # this relay runs no referee (no --referee)
        }
        assert games["dots"]["computer"] is False
        for name in EXAMPLES:
            for file in (f"{name}.html", f"{name}-game.mjs", f"{name}.css"):
                assert get(f"{relay.url}/{file}")[0] == 200, file
        _, page = get(f"{relay.url}/connect4.html")
        assert b'src="connect4-page.mjs"' in page  # beside ./movewire.mjs and the page kit
        assert "games: game package 'connect4'" in relay.log()
        assert "referees: none" in relay.log()


def test_the_games_say_which_this_relay_referees() -> None:
    with RelayProcess(*quick_flags(), "--referee", "connect4", "--referee", "xand0") as relay:
        games = {
            game["name"]: game for game in json.loads(get(f"{relay.url}/v1/games")[1])["games"]
        }
        log = relay.log()
    # The start log says which referees it runs, by game, with the referee that judges each.
    assert "referees: connect4 (Connect4Referee), xand0 (Xand0Referee)" in log, log
    assert {name: game["refereed"] for name, game in games.items()} == {
        name: name in ("connect4", "xand0") for name in EXAMPLES
    }
    assert games["connect4"]["referee"] is True  # it ships one, and this relay runs it
    shipped = [name for name, game in games.items() if game["referee"] and not game["refereed"]]
    assert shipped, games  # another game ships a referee this relay does not run
    assert all(games[name]["refereed"] is False for name in shipped)


def test_an_installed_package_is_served_and_listed_with_the_examples(tmp_path: Path) -> None:
    install(
        tmp_path, "fakegame", "fakegame", {"fake": "fakegame:PACKAGE"},
        {"__init__.py": package_module(computer="True"), "page/fake.html": PAGE,
         "page/fake.mjs": 'import { RelayHost } from "./movewire.mjs";\n'},
    )  # fmt: skip
    with RelayProcess(*quick_flags(), env=relay_env(tmp_path)) as relay:
        games = json.loads(get(f"{relay.url}/v1/games")[1])["games"]
        assert [game["name"] for game in games] == sorted([*EXAMPLES, "fake"])
        fake = next(game for game in games if game["name"] == "fake")
        assert fake == {
            "name": "fake", "title": "Fake", "summary": "A fake game.", "page": "fake.html",
            "view": None, "computer": True, "referee": False, "refereed": False,
        }  # fmt: skip
        assert get(f"{relay.url}/fake.html")[1] == PAGE.encode()
        assert get(f"{relay.url}/movewire.mjs")[0] == 200


BROKEN = {
    "an import error": (
        {"__init__.py": "import no_such_module_here\n"},
        "game package 'fake' (fakegame 1.0) cannot be loaded from 'fakegame:PACKAGE': "
        "ModuleNotFoundError: No module named 'no_such_module_here'",
    ),
    "not a game package's shape": (
        {"__init__.py": "PACKAGE = {'name': 'fake'}\n"},
        "game package 'fake' (fakegame 1.0) is not a game package: its 'name' must be text",
    ),
    "a name not its entry point's": (
        {"__init__.py": package_module("other"), "page/other.html": PAGE},
        "game package 'fake' (fakegame 1.0) names itself 'other'",
    ),
    "a name that is no game name": (
        {"__init__.py": package_module("Fake!"), "page/fake.html": PAGE},
        "game package 'fake' (fakegame 1.0) is not a game package: its name 'Fake!' must be",
    ),
    "no page folder": (
        {"__init__.py": package_module()},
        "game package 'fake' (fakegame 1.0) has no page folder:",
    ),
    "no page": (
        {"__init__.py": package_module(), "page/other.html": PAGE},
        "game package 'fake' (fakegame 1.0) has no page 'fake.html' in its page folder",
    ),
    "no view": (
        {"__init__.py": package_module(view="'fake-game.mjs'"), "page/fake.html": PAGE},
        "game package 'fake' (fakegame 1.0) has no view 'fake-game.mjs' in its page folder",
    ),
    "a file of the relay's own": (
        {"__init__.py": package_module(), "page/fake.html": PAGE, "page/movewire.mjs": "//"},
        "game package 'fake' (fakegame 1.0) cannot be served: its page file /movewire.mjs is "
        "served already by the relay's own pages",
    ),
    "a file of another package's": (
        {"__init__.py": package_module(), "page/fake.html": PAGE, "page/connect4-view.mjs": ""},
        "game package 'fake' (fakegame 1.0) cannot be served: its page file "
        "/connect4-view.mjs is served already by game package 'connect4' (movewire ",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_package_stops_the_relay_with_a_message_naming_it(
    tmp_path: Path, case: str
) -> None:
    files, said = BROKEN[case]
    install(tmp_path, "fakegame", "fakegame", {"fake": "fakegame:PACKAGE"}, files)
    refused = start_refused(tmp_path)
    assert said in refused
    # The one line that matters, not after the options' usage.
    assert refused.strip().splitlines() == [refused.strip()], refused
    assert refused.startswith("python -m relay: error: game package 'fake'"), refused


def test_a_game_name_installed_twice_is_refused_naming_both(tmp_path: Path) -> None:
    files = {"__init__.py": package_module("xand0"), "page/xand0.html": PAGE}
    install(tmp_path, "otherxand0", "otherxand0", {"xand0": "otherxand0:PACKAGE"}, files)
    said = start_refused(tmp_path)
    assert "game 'xand0' is installed twice: by game package 'xand0' (" in said
    assert "otherxand0 1.0" in said and "movewire " in said

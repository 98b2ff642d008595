"""The SDK installs alone: what `pip install movewire` pulls (aiohttp, orjson, nothing of the
relay's), which top-level names the wheel installs, and the example games as console scripts;
and a host's install: the relay from the wheel with a new game package pip-installed beside
it, which it serves and lists with the example games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from bench.installed import build_wheel
from sdk.new import write
from tests.support.processes import run_together
from tests.support.relay_process import RelayProcess, quick_flags

TOP_LEVEL = {"relay", "sdk", "movewire_games"}
"""The only top-level names the wheel installs: `relay` and `sdk` as the layout requires, and
the example games under a name of this project's own (never a bare `examples`)."""
SERVER_ONLY = {
    "prometheus-client", "prometheus_client", "uvloop", "redis", "hiredis", "httptools",
}  # fmt: skip


def test_the_wheel_installs_relay_sdk_and_movewire_games_only(installed: Path) -> None:
    names = {path.name for path in installed.iterdir() if not path.name.endswith(".dist-info")}
    assert names == TOP_LEVEL
    # mypyc's shared runtime lives inside relay/, not as a hashed module at the top level.
    assert list((installed / "relay").glob("_compiled__mypyc*"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Returns the wheel `pip install .` builds, pure Python (built once for this file)."""
    built, _ = build_wheel(tmp_path_factory.mktemp("wheel"), {**os.environ, "MOVEWIRE_PURE": "1"})
    return built


def install(folder: Path, *wanted: str) -> None:
    """Installs what is wanted into the virtualenv at folder, with uv: it installs what the
    wheel's metadata asks, as pip does, in a second where pip takes half a minute (pip itself
    is tested by CI's own `pip install -e .[test]` and tests/packaging/test_editable.py)."""
    done = subprocess.run(
        ["uv", "pip", "install", "-q", "--python", str(folder / "bin" / "python"), *wanted],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def new_venv(folder: Path, *wanted: str) -> Path:
    """Returns a fresh virtualenv in folder, with pip (as `python -m venv` makes one) and what
    is wanted installed in it."""
    made = subprocess.run(
        ["uv", "venv", "-q", "--seed", "--python", sys.executable, str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    install(folder, *wanted)
    return folder


@pytest.fixture(scope="module")
def sdk_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Returns a fresh virtualenv with the wheel installed as a game writer would: no extras."""
    return new_venv(tmp_path_factory.mktemp("sdk-alone") / "venv", str(wheel))


def run(venv_folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Runs a command of the virtualenv from a folder without this checkout in it."""
    return subprocess.run(
        [str(venv_folder / "bin" / args[0]), *args[1:]],
        cwd=venv_folder,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.timeout(900)
def test_the_sdk_alone_pulls_aiohttp_and_nothing_of_the_relays(sdk_venv: Path) -> None:
    listed = run(sdk_venv, "python", "-m", "pip", "list", "--format=freeze")
    assert listed.returncode == 0, listed.stderr
    pulled = {line.split("==")[0].lower() for line in listed.stdout.split()}
    assert {"movewire", "aiohttp", "orjson"} <= pulled
    assert not pulled & SERVER_ONLY
    assert not pulled & {"mypy", "setuptools-scm", "hatchling"}
    sdk = run(
        sdk_venv, "python", "-c", "from sdk import RelayHost, Ticket; from sdk import console"
    )
    assert sdk.returncode == 0, sdk.stderr
    made = run(sdk_venv, "python", "-m", "sdk.new", "stones", "--dir", "stones-game")
    assert made.returncode == 0, made.stderr  # the skeleton's templates ship in the wheel
    assert (sdk_venv / "stones-game" / "stones" / "page" / "stones.mjs").is_file()
    relay = run(sdk_venv, "python", "-m", "relay", "--help")
    assert relay.returncode == 1
    assert "the relay needs its own dependencies" in relay.stderr
    assert "pip install 'movewire[relay]'" in relay.stderr


@pytest.mark.timeout(900)
def test_the_example_games_play_as_console_scripts_of_the_sdk_alone(sdk_venv: Path) -> None:
    with RelayProcess(*quick_flags(hold=1, grace=10)) as relay:
        command = [str(sdk_venv / "bin" / "movewire-xand0"), "--relay", relay.url, "--room",
                   "installed", "--bot"]  # fmt: skip
        ends = run_together([command, command], sdk_venv, timeout=60)
    assert [end.returncode for end in ends] == [0, 0], ends
    answers = [(end.stdout, end.stderr) for end in ends]
    assert all("drawn" in out for out, _ in answers), answers  # two perfect players draw
    for script in ("movewire-connect4", "movewire-dots"):
        helped = run(sdk_venv, script, "--help")
        assert helped.returncode == 0, helped
        assert helped.stdout.startswith(f"usage: {script} ") and "--bot" in helped.stdout


@pytest.mark.timeout(900)
def test_a_game_pip_installed_beside_the_relay_is_served_and_listed(
    wheel: Path, tmp_path: Path
) -> None:
    game = tmp_path / "stones-game"
    write("stones", game, "Stones")  # as `python -m sdk.new stones --dir stones-game` does
    # A host's install: the relay from the wheel, then the game, as `pip install ./stones-game`.
    host = new_venv(tmp_path / "venv", f"{wheel}[relay]")
    install(host, str(game))
    relay = RelayProcess(*quick_flags())
    # The venv's relay, not this checkout's: -P keeps the working folder off the path.
    relay.args = [str(host / "bin" / "python"), "-P", "-m", "relay", *relay.args[3:]]
    relay.env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with relay:
        with urllib.request.urlopen(f"{relay.url}/v1/games", timeout=10) as answer:
            games = {entry["name"]: entry for entry in json.loads(answer.read())["games"]}
        # The example games' entry points import from the wheel (movewire_games), the new
        # game's from its own install.
        assert sorted(games) == ["connect4", "dots", "stones", "xand0"]
        assert games["stones"]["title"] == "Stones" and games["stones"]["page"] == "stones.html"
        for page, wanted in (("stones.html", b"<title>Stones"), ("connect4-game.mjs", b"GAME")):
            with urllib.request.urlopen(f"{relay.url}/{page}", timeout=10) as answer:
                assert wanted in answer.read()
        log = relay.log()
    assert "game package 'stones' (stones 0.1.0)" in log
    assert "game package 'xand0' (movewire 0.1.0)" in log

"""The count-to-21 game of the README (and docs/sdk.md) runs as written: as two scripts, and
under sdk.testing."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sdk import Game, GameHost, Reason, RelayHost, Result, Ticket
from sdk.testing import FAST, local_relay, run_pair
from tests.sdk.count21 import DOCS, ROOT, example, load


def test_the_readme_and_the_sdk_doc_show_the_same_example() -> None:
    assert example(DOCS[0]) == example(DOCS[1])


def test_the_example_runs_as_two_scripts_against_a_relay(relay_url: str, tmp_path: Path) -> None:
    load(tmp_path)
    room = "docs-" + secrets.token_hex(6)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    players = [
        subprocess.Popen(
            [sys.executable, str(tmp_path / "count21.py"), relay_url, room],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        answers = [player.communicate(timeout=60) for player in players]
    finally:
        for player in players:
            player.kill()
    assert [player.returncode for player in players] == [0, 0], answers
    assert sorted(out.strip() for out, _ in answers) == ["lost (agreed)", "won (agreed)"]


def test_the_example_is_tested_in_a_few_lines_with_run_pair(tmp_path: Path) -> None:
    count21 = load(tmp_path)
    pair = run_pair(count21.CountTo21, count21.CountTo21)
    assert [o.reason for o in pair.outcomes] == [Reason.AGREED, Reason.AGREED]
    assert sorted(o.result for o in pair.outcomes) == [Result.LOST, Result.WON]
    assert [game.total for game in pair.games] == [21, 21]  # type: ignore[union-attr]
    assert pair.dialogs == ([], [])


async def test_the_example_resumes_from_the_log_after_a_crash(tmp_path: Path) -> None:
    count21 = load(tmp_path)

    class Crash(Exception):
        pass

    class Fragile(count21.CountTo21):  # type: ignore[name-defined,misc]
        """Crashes on its third turn, as a client killed mid-game."""

        turns = 0

        def enable(self) -> None:
            Fragile.turns += 1
            if Fragile.turns == 3:
                raise Crash
            super().enable()

    def fragile(host: GameHost, first_move: bool) -> Game:
        game: Game = Fragile(host, first_move)
        return game

    async with local_relay() as url:
        factories = (fragile, count21.CountTo21)
        hosts = [RelayHost(url, "count21", f, room="resume", timing=FAST) for f in factories]
        async with asyncio.timeout(30):
            crashing, steady = (asyncio.create_task(h.play()) for h in hosts)
            await asyncio.wait([crashing])
            assert isinstance(crashing.exception(), Crash)
            ticket = hosts[0].ticket
            assert ticket is not None
            resumed = RelayHost.resume(url, ticket, count21.CountTo21, timing=FAST)
            outcomes = await asyncio.gather(resumed.play(), steady)
    assert [o.reason for o in outcomes] == [Reason.AGREED, Reason.AGREED]
    assert sorted(o.result for o in outcomes) == [Result.LOST, Result.WON]
    assert resumed.game is not None and resumed.game.total == 21  # type: ignore[attr-defined]


async def test_the_resume_recipe_takes_up_a_saved_seat_after_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count21 = load(tmp_path)
    found = re.search(r"<!-- example: resume -->\n```python\n(.*?)```", DOCS[1].read_text(), re.S)
    assert found is not None, "docs/sdk.md has no resume recipe"
    recipe: dict[str, Any] = {"CountTo21": count21.CountTo21}
    exec(compile(found.group(1), "resume-recipe", "exec"), recipe)
    saved, save_seat = asyncio.Event(), recipe["save_seat"]

    def save_and_tell(ticket: Ticket) -> None:
        save_seat(ticket)
        saved.set()

    recipe["save_seat"] = save_and_tell
    monkeypatch.chdir(tmp_path)  # SEAT is a path relative to the working folder
    seat = tmp_path / "count21-seat.json"
    async with local_relay() as url:
        async with asyncio.timeout(30):
            crashed = asyncio.create_task(recipe["play_or_resume"](url))
            await saved.wait()
            assert seat.exists()
            crashed.cancel()  # the client dies waiting for a partner, its seat saved
            await asyncio.wait([crashed])
            partner = RelayHost(url, "count21", count21.CountTo21, version="1", timing=FAST)
            outcomes = await asyncio.gather(recipe["play_or_resume"](url), partner.play())
    assert outcomes[0].match == outcomes[1].match
    assert [o.reason for o in outcomes] == [Reason.AGREED, Reason.AGREED]
    assert not seat.exists()

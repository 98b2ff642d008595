"""`--replay MATCH` in the terminal clients: a match's record, move by move, through a relay."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from typing import Any

import pexpect
import pytest

from examples.text.replay import ending
from sdk import Ended, Record
from tests.examples.textclients import PERSON_TIMEOUT, fresh_room, quick_relay
from tests.support.relay_process import ROOT

WIN = ["00", "10", "11", "20", "22"]
"""X takes the diagonal while O answers on the top row."""


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """Returns the URL of a relay for the module."""
    with quick_relay() as url:
        yield url


def call(relay: str, path: str, body: object = None, token: str | None = None) -> Any:
    """Sends one request to the relay; returns the decoded JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(relay + path, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def finished_xand0(relay: str) -> str:
    """Plays X and 0 to X's win through the relay, agreed; returns the match id."""
    room = fresh_room()
    a = call(relay, "/v1/seek", {"game": "xand0", "version": "1", "room": room})
    b = call(relay, "/v1/seek", {"game": "xand0", "version": "1", "room": room})
    match = a["match"]
    # Seat 0 polls again, as a live client does: that starts the paired match.
    call(relay, f"/v1/matches/{match}/events?after=0", token=a["token"])
    first = call(relay, f"/v1/matches/{match}")["first"]
    tokens = [a["token"], b["token"]] if first == a["seat"] else [b["token"], a["token"]]
    for index, move in enumerate(WIN):
        body = {"after": index + 1, "move": move, "end": index == len(WIN) - 1}
        call(relay, f"/v1/matches/{match}/moves", body, tokens[index % 2])
    call(relay, f"/v1/matches/{match}/confirm", {"after": 6, "agree": True}, tokens[1])
    return str(match)


def replay(game: str, relay: str, match: str) -> subprocess.CompletedProcess[str]:
    """Runs `--replay` with its input and output piped, to its end."""
    return subprocess.run(
        [sys.executable, "-m", f"examples.{game}", "--relay", relay, "--replay", match],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_piped_replay_writes_every_position_and_the_ending(relay: str) -> None:
    match = finished_xand0(relay)
    done = replay("xand0", relay, match)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert f"X and 0, match {match}: 5 moves. O agreed the game was over." in out
    steps = [line for line in out.splitlines() if line.startswith(("Start", "Move "))]
    assert steps == [
        "Start (5 moves in all):",
        *(f"Move {n} of 5: {'XO'[(n - 1) % 2]} played {WIN[n - 1]}" for n in range(1, 6)),
    ]
    # The boards fill up move by move: the last shows three X and two O.
    last = out.split("Move 5 of 5")[1]
    assert last.count("X") >= 3 and last.count("O") >= 2


def test_a_replay_steps_back_and_forth_at_a_terminal(relay: str) -> None:
    match = finished_xand0(relay)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "examples.xand0", "--relay", relay, "--replay", match],
        cwd=str(ROOT),
        env=dict(os.environ),
        encoding="utf-8",
        timeout=PERSON_TIMEOUT,
        dimensions=(60, 120),
    )
    child.logfile_read = io.StringIO()
    try:
        child.expect_exact("Start (5 moves in all):")
        child.sendline("")
        child.expect_exact("Move 1 of 5: X played 00")
        child.sendline("4")
        child.expect_exact("Move 4 of 5: O played 20")
        child.sendline("b")
        child.expect_exact("Move 3 of 5: X played 11")
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_unknown_matches_and_other_games_are_refused_plainly(relay: str) -> None:
    unknown = replay("xand0", relay, "no-such-match")
    assert unknown.returncode == 1
    assert "No replay:" in unknown.stdout and "match/unknown" in unknown.stdout
    other = replay("connect4", relay, finished_xand0(relay))
    assert other.returncode == 1
    assert "is a game of 'xand0', not of 'connect4'" in other.stdout


@pytest.mark.parametrize(
    ("ended", "words"),
    [
        (Ended(9, "over", 0, at=8, detail="three in a row", winner=0, refereed=True),
         "The referee found the game over after X's move: three in a row. X wins."),
        (Ended(9, "illegal", 1, at=8, detail="the game was over", winner=0, refereed=True),
         "The referee found a move of O's illegal: the game was over. X wins."),
        (Ended(9, "over", 1, at=8, detail="the board is full", winner=None, refereed=True),
         "The referee found the game over after O's move: the board is full. It is a draw."),
        (Ended(9, "disputed", 1, at=8, detail="column 3 is full"),
         "O disputed the last move: column 3 is full."),
    ],
)  # fmt: skip
def test_the_replay_says_a_referees_verdict_and_a_disputes_reason(ended: Ended, words: str) -> None:
    record = Record(
        match="m", game="xand0", version="1", room=None, first=0, status="finished",
        result=(ended.reason, ended.seat), events=[], ending=ended,
    )  # fmt: skip
    assert ending(record) == words

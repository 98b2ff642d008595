"""Helpers of the text client tests: a relay, a person in a pseudo-terminal, a bot process."""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator

import pexpect

from tests.support.relay_process import ROOT, RelayProcess, quick_flags

__all__ = ["bot_process", "fresh_room", "person", "quick_relay", "run_person"]

PERSON_TIMEOUT = 20
"""Seconds a person's client may take to show what a test expects next."""


@contextlib.contextmanager
def quick_relay() -> Iterator[str]:
    """Runs a relay that holds polls 1 s and declares a silent seat gone after 3 s."""
    with RelayProcess(*quick_flags(hold=1, grace=3)) as relay:
        yield relay.url


def fresh_room() -> str:
    """Returns a private room name no other test uses."""
    return "t-" + secrets.token_hex(6)


def _command(game: str, relay: str, room: str | None, *more: str) -> list[str]:
    where = [] if room is None else ["--room", room]
    return ["-m", f"examples.{game}", "--relay", relay, *where, *more]


@contextlib.contextmanager
def person(
    game: str, relay: str, room: str | None, *more: str, **env: str
) -> Iterator[pexpect.spawn]:
    """Runs a person's client in a pseudo-terminal, with more options if given; its output is
    kept in `.transcript`."""
    child = pexpect.spawn(
        sys.executable,
        _command(game, relay, room, *more),
        cwd=str(ROOT),
        env={**os.environ, **env},
        encoding="utf-8",
        timeout=PERSON_TIMEOUT,
        dimensions=(60, 120),
    )
    child.transcript = io.StringIO()
    child.logfile_read = child.transcript
    try:
        yield child
    finally:
        child.close(force=True)


def run_person(game: str, relay: str, room: str, lines: str) -> subprocess.CompletedProcess[str]:
    """Runs a person's client with its input and output piped, to its end."""
    return subprocess.run(
        [sys.executable, *_command(game, relay, room)],
        cwd=ROOT,
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@contextlib.contextmanager
def bot_process(
    game: str, relay: str, room: str, level: int, *more: str
) -> Iterator[subprocess.Popen[str]]:
    """Starts `python -m examples.<game> --bot LEVEL` in the room (with more options if
    given); kills it if still running."""
    process = subprocess.Popen(
        [sys.executable, *_command(game, relay, room, "--bot", str(level), *more)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        if process.stdout is not None and not process.stdout.closed:
            process.communicate(timeout=10)

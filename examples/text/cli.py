"""The command line of a text client: `python -m examples.<game> --relay URL [--room NAME]
[--clock CLOCK] [--bot]`.

Exit codes: 0 when the match is over, whatever the result (resigning included), or the seek
was withdrawn before an opponent came; 1 when the relay could not be reached or refused, or a
bot failed; 2 for a bad command line; 130 when a second Ctrl-C quits without waiting.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from typing import Any

from sdk import (
    ConnectionLostError,
    Outcome,
    ProtocolError,
    Reason,
    RelayRefusedError,
    TimeControl,
)
from sdk.console import Keyboard, on_interrupt

from .client import BotSession, TextGame
from .console import Screen, wants_color
from .person import PersonSession
from .replay import replay

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_QUIT", "main", "parse_args"]

EXIT_OK = 0
"""The match is over (won, lost, drawn, resigned, left), or the seek was withdrawn."""
EXIT_FAILED = 1
"""The relay could not be reached or refused a request, or the bot failed."""
EXIT_QUIT = 130
"""A second Ctrl-C: quit at once, without waiting for the relay to record the resignation."""

DEFAULT_RELAY = "http://localhost:8080"
INTERRUPTED = "Interrupted"
QUIT = "Quit without waiting for the relay."
BAD_LEVEL = "--bot LEVEL must be {lo} to {hi}, not {level}"


def parse_args(spec: TextGame[Any], argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Returns the parsed command line (exits 2 with a message if it is wrong)."""
    lo, hi = spec.levels
    parser = argparse.ArgumentParser(
        prog=_program(spec),
        description=f"Play {spec.title} through a movewire relay, in the terminal or as a bot.",
    )
    parser.add_argument(
        "--relay", metavar="URL", default=DEFAULT_RELAY, help=f"default {DEFAULT_RELAY}"
    )
    parser.add_argument("--room", metavar="NAME", help="a private room: play whoever names it")
    parser.add_argument(
        "--clock",
        metavar="CLOCK",
        type=_clock,
        help="play on a clock: 'M+S' Fischer (M minutes each, S seconds more a move, e.g. 5+3),"
        " 'M' (no increment), or 'Nd' / 'Nh' a move (correspondence, e.g. 3d); only seekers"
        " of the same clock meet",
    )
    parser.add_argument(
        "--bot",
        metavar="LEVEL",
        nargs="?",
        type=int,
        const=hi,
        help=f"play as a computer opponent, level {lo} to {hi} (default {hi}, the strongest)",
    )
    parser.add_argument(
        "--replay",
        metavar="MATCH",
        help="show a finished or live match move by move, instead of playing",
    )
    args = parser.parse_args(argv)
    if args.replay is not None and (
        args.bot is not None or args.room is not None or args.clock is not None
    ):
        parser.error("--replay shows a match: it takes neither --bot, --room nor --clock")
    if args.bot is not None and not lo <= args.bot <= hi:
        parser.error(BAD_LEVEL.format(lo=lo, hi=hi, level=args.bot))
    return args


def main(spec: TextGame[Any], argv: Sequence[str] | None = None) -> int:
    """Runs the client as the command line says and returns its exit code."""
    args = parse_args(spec, argv)
    try:
        return asyncio.run(_run(spec, args))
    except KeyboardInterrupt:  # before the client could take over Ctrl-C
        return EXIT_QUIT


async def _run(spec: TextGame[Any], args: argparse.Namespace) -> int:
    session: PersonSession[Any] | BotSession[Any]
    screen = Screen(sys.stdout, color=wants_color(sys.stdout, os.environ), live=_is_tty())
    if args.replay is not None:
        return await _replay(spec, args, screen)
    if args.bot is not None:
        session = BotSession(spec, args.bot, args.clock)
    else:
        session = PersonSession(spec, screen, Keyboard(), args.clock)
        where = f"{spec.title} through {args.relay}" + (f", room {args.room}" if args.room else "")
        where += f", clock {args.clock}" if args.clock else ""
        screen.bold(where)
    playing: asyncio.Task[Any] = asyncio.create_task(session.play(args.relay, args.room))
    try:
        # The first Ctrl-C resigns (or leaves the queue), a second quits at once.
        with on_interrupt(lambda: session.leave(INTERRUPTED), lambda: _cancel(playing)):
            outcome = await playing
            while isinstance(session, PersonSession):
                playing = asyncio.create_task(_again(session, outcome))
                rematch = await playing
                if rematch is None:
                    break
                outcome = rematch
    except asyncio.CancelledError:
        screen.line(QUIT)
        return EXIT_QUIT
    return _exit_code(outcome, isinstance(session, BotSession) and session.failed)


async def _replay(spec: TextGame[Any], args: argparse.Namespace, screen: Screen) -> int:
    """Shows a match's record (exit 0), or why it cannot (exit 1)."""
    keyboard = Keyboard() if _is_tty() and sys.stdin.isatty() else None
    try:
        shown = await replay(spec, args.relay, args.replay, screen, keyboard)
    except (RelayRefusedError, ConnectionLostError, ProtocolError) as error:
        screen.line(f"No replay: {error}")
        return EXIT_FAILED
    return EXIT_OK if shown else EXIT_FAILED


async def _again(session: PersonSession[Any], outcome: Outcome) -> Outcome | None:
    return await session.again(outcome)


def _clock(text: str) -> TimeControl:
    """Returns the --clock a player wrote; argparse shows the accepted forms if it is wrong."""
    try:
        return TimeControl.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _program(spec: TextGame[Any]) -> str:
    """Returns how the client was started: `python -m examples.xand0` or `movewire-xand0`."""
    started = os.path.basename(sys.argv[0])
    if started in ("__main__.py", "-c", ""):
        games = (__package__ or "examples.text").rsplit(".", 1)[0]  # examples, or movewire_games
        return f"python -m {games}.{spec.key}"
    return started


def _exit_code(outcome: Outcome, failed: bool) -> int:
    if failed or outcome.reason in (Reason.CONNECTION_LOST, Reason.ERROR):
        return EXIT_FAILED
    return EXIT_OK


def _is_tty() -> bool:
    try:
        return sys.stdout.isatty()
    except ValueError:
        return False


def _cancel(task: asyncio.Task[Any]) -> None:
    task.cancel()

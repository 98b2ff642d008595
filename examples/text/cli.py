"""The command line of a text client: `python -m examples.<game> --relay URL [--room NAME]
[--clock CLOCK] [--bot]`, or `--games`, `--resume MATCH`, `--replay MATCH`, `--code CODE`,
`--show-code`.

Exit codes: 0 when the match is over, whatever the result (resigning included), or the seek
was withdrawn before an opponent came, or a code signed in or was shown; 1 when the relay could
not be reached or refused, or a bot failed; 2 for a bad command line; 130 when a second Ctrl-C
quits without waiting.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp

from sdk import (
    ConnectionLostError,
    Outcome,
    PlayerMatch,
    ProtocolError,
    Reason,
    RelayClient,
    RelayRefusedError,
    TimeControl,
    Timing,
    format_left,
    load_player_key,
)
from sdk.console import Keyboard, on_interrupt
from sdk.players import player_name
from sdk.ratings import RatingRange

from . import codes
from .client import BotSession, Seeking, TextGame
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
NO_GAMES = "Could not list your games"
NO_RESUME = "Could not resume"


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
    parser.add_argument(
        "--clock",
        metavar="CLOCK",
        type=_clock,
        help="play on a clock: 5+3 (5 minutes each, 3 seconds more a move), 10 (minutes, no "
        "increment), or 3d / 12h (correspondence: days or hours a move); only players of "
        "the same clock meet",
    )
    parser.add_argument(
        "--name",
        metavar="NAME",
        help="the name your opponent, spectators and the lobby see (up to 32 characters); "
        "kept beside the player key file and used again until you give another",
    )
    parser.add_argument(
        "--contact",
        metavar="HANDLE",
        help="in a correspondence game, the handle the relay's your-turn notices name (an "
        "address your host's notifier knows)",
    )
    parser.add_argument(
        "--player-key-file",
        metavar="PATH",
        type=Path,
        default=default_key_file(),
        help="the file keeping your player key, made at first use; it lists and resumes your "
        "correspondence games from any machine that has it (default %(default)s)",
    )
    parser.add_argument(
        "--rated",
        action="store_true",
        help="seek with your player key, so that the match is rated (a rating belongs to the "
        "key): your rating is shown at the end",
    )
    parser.add_argument(
        "--within",
        metavar="N",
        type=_within,
        help="meet only opponents within N points of your rating in this game (1 to 4000); "
        "implies --rated",
    )
    parser.add_argument(
        "--games",
        action="store_true",
        help="list your correspondence games of this player key (whose turn, time left), "
        "instead of playing",
    )
    parser.add_argument(
        "--resume",
        metavar="MATCH",
        help="take up a correspondence game of your player key again (see --games)",
    )
    parser.add_argument(
        "--code",
        metavar="CODE",
        type=_code,
        help="sign this terminal in as your player of another device, with a transfer code "
        "made there (a browser's Your devices page, or --show-code): its player key is kept "
        "in --player-key-file (a key the file held is kept beside it), and your games of "
        "this game are listed",
    )
    parser.add_argument(
        "--show-code",
        action="store_true",
        help="show a transfer code that signs a browser (its Your devices page) or another "
        "terminal (--code) in as the player of your player key, once, within 5 minutes; the "
        "key itself is never shown",
    )
    args = parser.parse_args(argv)
    if args.replay is not None and (args.bot is not None or args.room is not None):
        parser.error("--replay shows a match: it takes neither --bot nor --room")
    actions = ("replay", "games", "resume", "code", "show_code")
    elsewhere = [name.replace("_", "-") for name in actions if getattr(args, name)]
    if len(elsewhere) > 1:
        parser.error(f"--{elsewhere[0]} and --{elsewhere[1]} cannot go together")
    if (args.games or args.resume) and (args.clock or args.room):
        parser.error(f"--{elsewhere[0]} takes neither --clock nor --room")
    seeks = args.bot is not None or args.clock or args.room or args.rated or args.within
    if (args.code or args.show_code) and seeks:
        parser.error(f"--{elsewhere[0]} plays no match: it takes no --bot, --clock, --room, "
                     "--rated or --within")  # fmt: skip
    if args.within is not None and args.room is not None:
        parser.error("--within finds a random opponent: it takes no --room")
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
    if args.show_code:
        shown = await codes.show_code(args.relay, args.player_key_file, screen)
        return EXIT_OK if shown else EXIT_FAILED
    if args.code is not None:
        return await _sign_in(spec, args, screen)
    try:
        seeking = await _seeking(spec, args, screen)
    except (RelayRefusedError, ConnectionLostError, ProtocolError, OSError, LookupError) as error:
        screen.line(f"{NO_GAMES if args.games else NO_RESUME}: {error}")
        return EXIT_FAILED
    if seeking is None:
        return EXIT_OK  # --games listed them
    if args.bot is not None:
        session = BotSession(spec, args.bot)
    else:
        session = PersonSession(spec, screen, Keyboard())
        where = f"{spec.title} through {args.relay}" + (f", room {args.room}" if args.room else "")
        if args.clock is not None:
            where += f", clock {args.clock}"
        screen.bold(where)
    session.seeking = seeking
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


def default_key_file() -> Path:
    """Returns where the player key is kept unless told: movewire/player-key in the user's
    configuration folder ($XDG_CONFIG_HOME, or ~/.config)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "movewire" / "player-key"


def _within(text: str) -> int:
    """Returns --within's points (1 to 4000); argparse reports a ValueError as a bad value."""
    points = int(text)
    if not 1 <= points <= 4000:
        raise ValueError(text)
    return points


def _code(text: str) -> str:
    try:
        return codes.typed_code(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


async def _sign_in(spec: TextGame[Any], args: argparse.Namespace, screen: Screen) -> int:
    """Signs in with --code and lists the key's games of this game (exit 0), or says why it
    could not (exit 1)."""
    try:
        listed = await codes.sign_in(args.relay, args.code, args.player_key_file, screen)
    except RelayRefusedError as error:
        screen.line(f"{codes.NOT_SIGNED_IN}: {codes.refusal_words(error)}")
        return EXIT_FAILED
    except (ConnectionLostError, ProtocolError, OSError) as error:
        screen.line(f"{codes.NOT_SIGNED_IN}: {error}")
        return EXIT_FAILED
    mine = [row for row in listed if row.game == spec.key]
    screen.line(games_table(spec, mine, args.player_key_file))
    return EXIT_OK


def _clock(text: str) -> TimeControl:
    try:
        return TimeControl.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


async def _seeking(spec: TextGame[Any], args: argparse.Namespace, screen: Screen) -> Seeking | None:
    """Returns what to seek (a correspondence clock brings the player key), or the seat to
    resume; lists the player key's games and returns None for --games. Raises LookupError
    for a --resume match the player key does not hold."""
    control: TimeControl | None = args.clock
    # The name stays with the player key's file: given once, it is used until another is.
    name = player_name(args.player_key_file, args.name)
    rated = args.rated or args.within is not None
    keyed = args.games or args.resume or rated or (control and control.kind == "deadline")
    if not keyed:
        return Seeking(control, None, args.contact, name=name)
    key = load_player_key(args.player_key_file)
    if not (args.games or args.resume):
        near = None if args.within is None else RatingRange(within=args.within)
        return Seeking(control, key, args.contact, name=name, rating_range=near)
    async with aiohttp.ClientSession() as session:
        listed = await RelayClient(session, args.relay, Timing()).player_matches(key)
    mine = [row for row in listed if row.game == spec.key]
    if args.games:
        screen.line(games_table(spec, mine, args.player_key_file))
        return None
    for row in mine:
        if row.match == args.resume:
            return Seeking(resume=row.ticket(key))
    where = args.player_key_file
    raise LookupError(f"no {spec.title} game {args.resume!r} under the player key in {where}")


def games_table(spec: TextGame[Any], rows: list[PlayerMatch], key_file: Path) -> str:
    """Returns the player key's games of this game as lines: the match, whose turn, the time
    left of the side to move, and how to resume it."""
    if not rows:
        return f"No {spec.title} games under the player key in {key_file}."
    lines = [f"Your {spec.title} games (player key in {key_file}):"]
    for row in rows:
        if row.status in ("playing", "ending"):
            whose = "your turn" if row.your_turn else "their turn"
            if row.status == "ending":
                whose = "game over? to confirm" if row.your_turn else "waiting for a confirm"
            if row.left is not None and row.time_control is not None and row.turn is not None:
                whose += f", {format_left(row.left[row.turn], row.time_control)} left"
            lines.append(f"  {row.match}  {whose}   --resume {row.match}")
        elif row.status == "waiting":
            lines.append(f"  {row.match}  waiting for an opponent")
        else:
            reason = row.result[0] if row.result else "over"
            lines.append(f"  {row.match}  finished ({reason})   --replay {row.match}")
    return "\n".join(lines)


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

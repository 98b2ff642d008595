"""Transfer codes at the terminal: `--code CODE` signs this terminal in as the player of another
device (a browser, another terminal), `--show-code` makes a code for one
(docs/examples.md#on-another-device). The player key itself is never shown."""

from __future__ import annotations

import math
import time
from pathlib import Path

import aiohttp

from sdk import (
    ConnectionLostError,
    PlayerMatch,
    ProtocolError,
    RelayClient,
    RelayRefusedError,
    Timing,
)
from sdk.signin import clean_code

from .console import Screen

__all__ = ["NOT_SIGNED_IN", "refusal_words", "show_code", "sign_in", "typed_code"]

NOT_SIGNED_IN = "Could not sign in"
NO_CODE = "Could not make a code"
SIGNED_IN = (
    "Signed in: this terminal now plays as your player of the other device (its player key "
    "is kept in {file})."
)
NAMED = "Your name there: {name} (give --name to seek under it here)."
KEPT = (
    "The player key this terminal had before is kept in {file} (--player-key-file {file} "
    "plays as it)."
)
NO_KEY = (
    "No player key in {file} yet: it is made at your first correspondence or rated game (or "
    "sign in with --code)."
)
SHOWN = "Your transfer code: {code}"
HOW = (
    "Type it on your other device within 5 minutes (until {until}); it works once.\n"
    "  In a browser: the relay's Your devices page (devices.html; the lobby's link \"Play as "
    'yourself on another device"), "Transfer code".\n'
    "  In a terminal: --code {code}"
)
WORDS = {
    "code/unknown": (
        "no such code: mistyped, used already, or older than 5 minutes. Make a new one on "
        "your other device."
    ),
    "passkey/off": (
        "this relay does not offer transfer codes (its host has not turned passkeys on)."
    ),
    "limit/signins": "too many tries from this address: try again in {wait}.",
    "code/too_many": (
        "this player key made 3 codes in the last 5 minutes: use one of them, or make "
        "another in {wait}."
    ),
}
"""The terminal's words for the relay's refusals of transfer codes, by error code."""


def typed_code(text: str) -> str:
    """Returns --code's code, canonical; raises ValueError for text that cannot be one
    (argparse then says so)."""
    return clean_code(text)


def refusal_words(error: RelayRefusedError) -> str:
    """Returns what to tell a player of a refused code call: the terminal's words for the
    codes it knows, the relay's own otherwise."""
    words = WORDS.get(error.code)
    if words is None:
        return str(error)
    return words.format(wait=_wait(error.retry_after))


async def sign_in(relay: str, code: str, key_file: Path, screen: Screen) -> list[PlayerMatch]:
    """Signs in with a transfer code, keeps the key in key_file and says so; returns the key's
    matches. Raises what RelayClient raises, and OSError when the file cannot be written."""
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, Timing())
        signed = await client.sign_in_with_code(code, key_file)
        screen.line(SIGNED_IN.format(file=key_file))
        if signed.name is not None:
            screen.line(NAMED.format(name=signed.name))
        if signed.previous is not None:
            screen.line(KEPT.format(file=signed.previous))
        return await client.player_matches(signed.key)


async def show_code(relay: str, key_file: Path, screen: Screen) -> bool:
    """Makes a transfer code of the key in key_file and shows it with how to use it; says why
    not and returns False when it cannot."""
    try:
        key = _held_key(key_file)
    except OSError as error:
        screen.line(f"{NO_CODE}: {error}")
        return False
    if not key:
        screen.line(NO_KEY.format(file=key_file))
        return False
    try:
        async with aiohttp.ClientSession() as session:
            made = await RelayClient(session, relay, Timing()).make_code(key)
    except RelayRefusedError as error:
        screen.line(f"{NO_CODE}: {refusal_words(error)}")
        return False
    except (ConnectionLostError, ProtocolError) as error:
        screen.line(f"{NO_CODE}: {error}")
        return False
    screen.bold(SHOWN.format(code=made.code))
    until = time.strftime("%H:%M", time.localtime(made.until))
    screen.line(HOW.format(code=made.code, until=until))
    return True


def _held_key(key_file: Path) -> str:
    """Returns the player key kept in key_file ("" when there is none)."""
    try:
        return key_file.read_text().strip()
    except FileNotFoundError:
        return ""


def _wait(seconds: float | None) -> str:
    """Returns a wait in words: "42 s", "5 minutes" ("a minute" when the relay gave none)."""
    if seconds is None:
        return "a minute"
    if seconds < 90:
        return f"{max(1, math.ceil(seconds))} s"
    return f"{math.ceil(seconds / 60)} minutes"

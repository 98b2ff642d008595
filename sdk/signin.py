"""Transfer codes: a player key moves to another device, the terminal's or a browser's
(docs/protocol.md#passkeys).

A device holding the key makes a code (`RelayClient.make_code(key)`): 10 characters, good
once within 5 minutes. The other device redeems it (`RelayClient.sign_in_with_code(code,
key_file)`) and keeps the key in its key file, where `load_player_key()` reads it: its name,
ratings, history and correspondence matches come with it. The relay must have passkeys on
(`404 passkey/off` without); a wrong, used or expired code is `403 code/unknown`, too many
tries `429 limit/signins` and too many codes `429 code/too_many`, each a RelayRefusedError
raised at once (not retried), with the relay's `retry_after`.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from sdk.errors import ProtocolError
from sdk.transport import NOT_AN_ANSWER, Transport

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "SignedIn",
    "SigninCalls",
    "TransferCode",
    "clean_code",
    "keep_player_key",
]

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The characters of a transfer code (no 0, O, 1, I, L or U)."""
CODE_LENGTH = 10
"""The characters of a transfer code, shown as two groups of five."""
BAD_CODE = (
    "a transfer code is {length} letters and digits, such as ABCDE-FGHJK (no 0, O, 1, I, L "
    "or U), not {text!r}"
)
"""The ValueError of text that cannot be a transfer code."""

_PLAYER_KEY = re.compile(r"[A-Za-z0-9_-]{32,128}")
"""A player key as the protocol has it: 32 to 128 URL-safe characters."""
_ONCE = frozenset({408})
"""The 4xx answers retried for these calls: a rate limit's 429 is told at once."""


def clean_code(text: str) -> str:
    """Returns a transfer code as typed, made canonical ("ABCDE-FGHJK": upper case, spaces
    and dashes ignored); raises ValueError for text that cannot be one."""
    code = text.replace(" ", "").replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        raise ValueError(BAD_CODE.format(length=CODE_LENGTH, text=text))
    half = CODE_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


@dataclass(frozen=True, slots=True)
class TransferCode:
    """A transfer code the relay made for a player key."""

    code: str
    """The code as shown: two groups of five ("ABCDE-FGHJK")."""
    until: float
    """When it stops working (seconds since the epoch)."""

    def left(self, now: float | None = None) -> float:
        """Returns the seconds it still works (0 once expired)."""
        return max(0.0, self.until - (time.time() if now is None else now))


@dataclass(frozen=True, slots=True)
class SignedIn:
    """What signing in with a code did to a key file."""

    key_file: Path
    """The file now holding the player key."""
    previous: Path | None
    """Where the other key the file held before is kept (None: it held none, or this one)."""
    key: str = field(repr=False)
    """The player key (never shown in a repr)."""
    name: str | None = None
    """The name the key last sought under, as the relay answered it (None: none)."""


class SigninCalls(Transport):
    """The calls of transfer codes (RelayClient has them)."""

    async def make_code(self, player: str) -> TransferCode:
        """Returns a new transfer code that signs another device in as this player key, once
        within 5 minutes (3 codes a key in 5 minutes)."""
        answer = await self._call("POST", "/v1/player/code", player, None, retried=_ONCE)
        try:
            return TransferCode(clean_code(answer["code"]), float(answer["until"]))
        except (KeyError, TypeError, ValueError):
            raise ProtocolError(NOT_AN_ANSWER.format(what="a code", body=answer)) from None

    async def redeem_code(self, code: str) -> str:
        """Returns the player key a transfer code was made for; the code is then used up.
        Raises ValueError for text that cannot be a code, before asking the relay, and
        ProtocolError for an answer that is not a player key (never kept)."""
        return (await self._redeem(code))[0]

    async def sign_in_with_code(self, code: str, key_file: Path) -> SignedIn:
        """Redeems a transfer code and keeps its player key in key_file (see
        keep_player_key): from then on this device plays as that player, whose name the
        answer carries."""
        key, name = await self._redeem(code)
        return SignedIn(key_file, keep_player_key(key_file, key), key, name)

    async def _redeem(self, code: str) -> tuple[str, str | None]:
        """Redeems a code: returns the player key and the name it last sought under."""
        body = {"code": clean_code(code)}
        answer = await self._call("POST", "/v1/signin/code", None, body, retried=_ONCE)
        player = answer.get("player") if isinstance(answer, dict) else None
        if not isinstance(player, str) or _PLAYER_KEY.fullmatch(player) is None:
            raise ProtocolError(NOT_AN_ANSWER.format(what="a code's sign-in", body="{...}"))
        name = answer.get("name")
        return player, name if isinstance(name, str) else None


def keep_player_key(path: Path, key: str) -> Path | None:
    """Keeps a player key in the file at path (readable by its owner only), where
    load_player_key() reads it. Another key the file held is not lost: it is kept beside it
    (`<file>.before-<time>`), and that file is returned (None when there was none to keep)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        held = path.read_text().strip()
    except FileNotFoundError:
        held = ""
    if held == key:
        return None
    previous = None
    if held:
        previous = _write_new(path, f".before-{time.strftime('%Y%m%d-%H%M%S')}", held)
    # Written whole to a file of its own, then renamed over the old: never half a key.
    fresh = _write_new(path, f".{os.getpid()}.new", key)
    os.replace(fresh, path)
    return previous


def _write_new(path: Path, suffix: str, text: str) -> Path:
    """Writes text to a new file beside path (its name + suffix, a number added while one of
    that name exists), readable by its owner only; returns it."""
    for count in range(1, 1000):
        beside = path.with_name(path.name + suffix + ("" if count == 1 else f"-{count}"))
        try:
            fd = os.open(beside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(fd, "w") as out:
            out.write(text + "\n")
        return beside
    raise FileExistsError(f"no free name beside {path}")

"""Terminal output for the text clients: colour only where wanted, a live status line."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TextIO

__all__ = ["Screen", "wants_color"]

_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"


def wants_color(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Returns whether to colour output: a terminal, NO_COLOR unset or empty, TERM not dumb."""
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except ValueError:  # a closed stream
        return False


class Screen:
    """Writes the client's lines; on a terminal, a status line shows its elapsed time live.

    The cursor may be left after a status line or a prompt; the next line starts a new one.
    """

    def __init__(self, out: TextIO, *, color: bool, live: bool) -> None:
        self.out = out
        """Where the text goes."""
        self.color = color
        """Whether to use ANSI colours and bold."""
        self.live = live
        """Whether the output is a terminal, where a status line is rewritten as time passes."""
        self._open = False  # the cursor is after a status line or a prompt
        self._status = ""
        self._since = 0.0
        self._shown, self._width = "", 0  # the status line as shown, and its length

    def line(self, text: str = "") -> None:
        """Writes a line of text (several if it holds newlines), below anything left open."""
        self._close()
        self._write(text + "\n")

    def bold(self, text: str) -> None:
        """Writes a line of text, in bold where colour is wanted."""
        self.line(f"{_BOLD}{text}{_RESET}" if self.color else text)

    def status(self, text: str) -> None:
        """Shows what is happening, such as "Waiting for an opponent..."; `tick` adds the time.

        On a terminal, a new status replaces one still shown on the same line.
        """
        if self.live and self._open and self._status:
            self._write("\r" + " " * self._width + "\r")
        else:
            self._close()
        self._status, self._since = text, time.monotonic()
        if self.live:
            self._show(text)
            self._open = True
        else:
            self._write(text + "\n")

    def tick(self) -> None:
        """Rewrites the open status line with the whole seconds since it was shown (terminals).

        Call it several times a second: it writes only when the time shown changes.
        """
        if self.live and self._open and self._status:
            elapsed = int(time.monotonic() - self._since)
            text = f"\r{self._status} {elapsed // 60}:{elapsed % 60:02d}"
            if elapsed and text != self._shown:
                self._show(text)

    def prompt(self, text: str) -> None:
        """Asks for a line: writes text and leaves the cursor after it."""
        self._close()
        self._write(text)
        self._open = True

    def typed(self, text: str, echoed: bool) -> None:
        """Notes a line typed at the prompt; writes it unless a terminal `echoed` it right there.

        A line typed ahead was echoed before the prompt, and a pipe echoes nothing.
        """
        if not (echoed and self.live):
            self._write(text + "\n")
        self._open = False
        self._status = ""

    def _close(self) -> None:
        if self._open:
            self._write("\n")
            self._open = False
        self._status = ""

    def _show(self, text: str) -> None:
        self._shown, self._width = text, len(text.lstrip("\r"))
        self._write(text)

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

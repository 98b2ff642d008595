"""Terminal games: typed lines read without blocking the event loop; Ctrl-C or end of input resigns.

    from sdk.console import Console

    console = Console()
    host = RelayHost(url, "count21", lambda h, first: Counter(h, first, console),
                     dialog=console.say)
    outcome = await console.play(host)

A game asks its player from `enable()` with `console.ask(prompt, answer)`: the prompt is shown
and each line typed is handed to `answer(line)` in the event loop, which moves (and returns
None) or returns what was wrong (shown, and the prompt asked again). Nothing ever blocks the
loop that polls the relay: a thread reads standard input.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TextIO

from sdk.outcome import Outcome
from sdk.relay_host import RelayHost
from sdk.state import State

__all__ = ["Answer", "Console", "Keyboard", "on_interrupt"]

INTERRUPTED = "Interrupted"
END_OF_INPUT = "End of input"
LEAVING = "{why}: leaving the queue."
RESIGNING = "{why}: resigning."
NOT_PLAYING = "Console.ask() needs the host that Console.play() runs"

_CHUNK = 4096

Answer = Callable[[str], "str | None"]
"""Takes a typed line: plays it and returns None, or returns what was wrong with it."""


class Keyboard:
    """The lines typed on standard input, read by a daemon thread; None stands for its end.

    The thread reads the file descriptor directly, so that it never holds a lock of
    `sys.stdin` that the interpreter would wait for at exit.
    """

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        """The file descriptor read (0: standard input)."""
        self.ended = asyncio.Event()
        """Set when the input has ended (Ctrl-D on a terminal, the end of a pipe)."""
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._back: list[str] = []
        """Lines given back (unread), taken before the queue's."""
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Starts reading; call it from the event loop that awaits the lines."""
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._read, name="keyboard", daemon=True).start()

    @property
    def is_tty(self) -> bool:
        """Returns whether the input is a terminal, which echoes what is typed."""
        try:
            return os.isatty(self.fd)
        except OSError:
            return False

    @property
    def pending(self) -> int:
        """Returns how many typed lines wait to be taken (the end of input not counted)."""
        return len(self._back) + self._lines.qsize() - (1 if self.ended.is_set() else 0)

    def unread(self, line: str) -> None:
        """Gives a line back: the next `line()` returns it again (a reader that took a line it
        does not handle: a move typed ahead while a command reader waited)."""
        self._back.append(line)

    async def line(self) -> str | None:
        """Returns the next typed line without its newline, or None once the input has ended."""
        if self._back:
            return self._back.pop()
        line = await self._lines.get()
        if line is None:
            self._lines.put_nowait(None)  # every later call sees the end too
        return line

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        partial = ""
        while True:
            try:
                chunk = os.read(self.fd, _CHUNK)
            except OSError:
                chunk = b""
            partial += decoder.decode(chunk, final=not chunk)
            *lines, partial = partial.split("\n")
            for line in lines:
                self._put(line.rstrip("\r"))
            if not chunk:
                if partial:
                    self._put(partial)
                self._put(None)
                return

    def _put(self, line: str | None) -> None:
        loop = self._loop
        assert loop is not None
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is listening
            loop.call_soon_threadsafe(self._arrive, line)

    def _arrive(self, line: str | None) -> None:
        self._lines.put_nowait(line)
        if line is None:
            self.ended.set()


@contextlib.contextmanager
def on_interrupt(leave: Callable[[], None], quit: Callable[[], None]) -> Iterator[None]:
    """Within it, the first Ctrl-C (SIGINT, or SIGTERM) calls leave(), any later one quit().

    Installs the handlers on the running event loop, and removes them on the way out.
    """
    loop = asyncio.get_running_loop()
    count = 0

    def interrupted() -> None:
        nonlocal count
        count += 1
        (leave if count == 1 else quit)()

    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not here, or not main
            loop.add_signal_handler(sig, interrupted)
            installed.append(sig)
    try:
        yield
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


class Console:
    """A terminal game's input and output: prompts that never block the event loop.

    `play(host)` runs a match with the keyboard read by a thread: Ctrl-C or the end of input
    (Ctrl-D) resigns (before a partner came, withdraws the seek), and a second Ctrl-C quits
    at once (KeyboardInterrupt). `ask()` prompts from a game's `enable()`.
    """

    def __init__(self, keyboard: Keyboard | None = None, out: TextIO | None = None) -> None:
        self.keyboard = keyboard or Keyboard()
        """Where the typed lines come from (standard input unless given)."""
        self.out = out or sys.stdout
        """Where prompts and messages go."""
        self.host: RelayHost | None = None
        """The host `play()` runs, while it runs."""
        self._asking: asyncio.Task[None] | None = None
        self._left = False

    def say(self, text: str) -> None:
        """Writes a line; pass it as a RelayHost's `dialog` to show the host's dialogs too."""
        self.out.write(text + "\n")
        self.out.flush()

    async def prompt(self, text: str) -> str | None:
        """Writes text and returns the next typed line, or None once the input has ended."""
        self.out.write(text)
        self.out.flush()
        line = await self.keyboard.line()
        if line is None:
            self.out.write("\n")
            self.leave(END_OF_INPUT)
        return line

    def ask(self, text: str, answer: Answer) -> None:
        """Prompts until `answer(line)` returns None (it moved); shows what it returns else.

        Call it from `enable()`: it returns at once, and the asking runs in the event loop.
        It stops when this side loses the turn (`stop_asking()` does too).
        """
        if self.host is None:
            raise RuntimeError(NOT_PLAYING)
        self.stop_asking()
        self._asking = asyncio.get_running_loop().create_task(self._ask(text, answer))

    def stop_asking(self) -> None:
        """Stops a prompt of `ask()` still waiting for a line (say, from `disable()`)."""
        if self._asking is not None and self._asking is not asyncio.current_task():
            self._asking.cancel()
        self._asking = None

    def leave(self, why: str = INTERRUPTED) -> None:
        """Resigns the match, or withdraws the seek before a partner came; once only."""
        host = self.host
        if self._left or host is None or host.outcome is not None:
            return
        if host.state is State.GAME_ENDED:
            return
        self._left = True
        listening = host.state in (State.NOT_CONNECTED, State.LISTENING)
        self.say((LEAVING if listening else RESIGNING).format(why=why))
        host.resign()

    async def play(self, host: RelayHost) -> Outcome:
        """Plays the host's match with the keyboard read; Ctrl-C or end of input resigns."""
        self.host = host
        self.keyboard.start()
        playing = asyncio.create_task(host.play())
        ended = asyncio.create_task(self._end_of_input())
        try:
            with on_interrupt(self.leave, lambda: _cancel(playing)):
                try:
                    return await playing
                except asyncio.CancelledError:
                    if playing.cancelled():
                        raise KeyboardInterrupt from None
                    raise
        finally:
            for task in (ended, self._asking):
                if task is not None:
                    task.cancel()
            self.host = None

    async def _ask(self, text: str, answer: Answer) -> None:
        while self.host is not None and self.host.state is State.PLAYING_TO_MOVE:
            line = await self.prompt(text)
            if line is None or self.host is None or self.host.state is not State.PLAYING_TO_MOVE:
                return
            wrong = answer(line)
            if wrong is None:
                return
            self.say(wrong)

    async def _end_of_input(self) -> None:
        # The end of input while nothing is asked (a partner's turn, the queue) leaves too.
        await self.keyboard.ended.wait()
        if self.keyboard.pending == 0 and (self._asking is None or self._asking.done()):
            self.leave(END_OF_INPUT)


def _cancel(task: asyncio.Task[Outcome]) -> None:
    task.cancel()

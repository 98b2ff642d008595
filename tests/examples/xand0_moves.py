"""Playing X and 0 in a person's terminal client from a test: its prompt, its verdicts, and a
whole game played out by taking the first free cell each time."""

from __future__ import annotations

import pexpect

from examples.xand0 import rules as xand0

__all__ = ["CELLS", "END", "PROMPT", "play_out"]

PROMPT = r"Your move \(([XO])\): "
"""The client's prompt on its turn (the side in group 1)."""
END = r"(You win|You lose|A draw)[:.]"
"""The client's verdict at the end (in group 1)."""
CELLS = [xand0.format_move(cell) for line in xand0.LINES for cell in line]
"""Every cell's move string, in the order play_out tries them."""


def play_out(child: pexpect.spawn) -> str:
    """Plays the first free cell at each prompt to the end; returns the verdict."""
    index = child.expect([PROMPT, END])
    while index == 0:
        for cell in CELLS:
            child.sendline(cell)
            got = child.expect([r"already occupied", PROMPT, END])
            if got == 0:
                child.expect(PROMPT)  # asked again
                continue
            index = 0 if got == 1 else 1
            break
    return str(child.match.group(1))

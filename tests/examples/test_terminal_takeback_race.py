"""A terminal takeback asked at once after one's own move, while the relay still holds the
move's post for the reply: the request is made after that move (not refused as stale), the
opponent accepts, both boards step back and the match goes on."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pexpect
import pytest

from tests.examples.textclients import fresh_room, person
from tests.support.relay_process import RelayProcess, quick_flags

PROMPT = re.compile(r"Your move \((X|0|O)\): ")
FIRST = re.compile(r"Paired: you play \S+, (moving first|your opponent moves first)\.")


def to_move(a: pexpect.spawn, b: pexpect.spawn) -> tuple[pexpect.spawn, pexpect.spawn]:
    """Returns (the person who moves first, the other) once both are paired."""
    firsts = []
    for side in (a, b):
        side.expect(FIRST)
        firsts.append(side.match.group(1) == "moving first")
    assert firsts[0] != firsts[1]
    return (a, b) if firsts[0] else (b, a)


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """Returns the URL of a relay that holds a move's post 5 s for the reply."""
    with RelayProcess(*quick_flags(hold=5, grace=30)) as started:
        yield started.url


@pytest.mark.timeout(90)
def test_a_takeback_asked_while_the_own_move_is_held_is_made_and_accepted(relay: str) -> None:
    room = fresh_room()
    with person("xand0", relay, room) as a, person("xand0", relay, room) as b:
        x, o = to_move(a, b)
        x.expect(PROMPT)
        x.sendline("11")
        x.expect_exact("Opponent is thinking...")
        # Asked at once, while the relay holds the post of 11 (5 s), maybe before it has it:
        # the request follows the move and is made at the position after it.
        x.sendline("/takeback")
        found = x.expect_exact(["Takeback asked.", "Not now:"])
        assert found == 0, x.transcript.getvalue()[-300:]
        o.expect_exact("Your opponent asks to take back their last move: /yes or /no.")
        o.sendline("/yes")
        for side in (x, o):
            side.expect_exact("The move was taken back.")
        x.expect(PROMPT)
        x.sendline("22")
        o.expect_exact("Your opponent played 22.")
        o.expect(PROMPT)
        for side in (x, o):
            assert not re.search(r"409|resigned", side.transcript.getvalue())
            assert side.isalive()
            side.sendintr()
        for side in (x, o):
            side.expect(pexpect.EOF)

"""The terminal client at the table: two people in pseudo-terminals see each other's names,
chat (markup stays text), offer and agree a draw, take a move back (or decline to), and are
told when the opponent leaves and how long it has to come back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tests.examples.textclients import fresh_room, person
from tests.support.relay_process import RelayProcess, quick_flags

PROMPT = re.compile(r"Your move \((X|0|O)\): ")
WAITING = "Opponent is thinking..."


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """Returns the URL of a relay for this module (2 s holds, 30 s grace)."""
    with RelayProcess(*quick_flags(hold=2, grace=30)) as started:
        yield started.url


FIRST = re.compile(r"Paired: you play \S+, (moving first|your opponent moves first)\.")


def paired(child: pexpect.spawn, name: str | None = None) -> bool:
    """Expects the pairing line (and the opponent's name, in either order); returns whether
    this person moves first."""
    wanted: list[str | re.Pattern[str]] = [FIRST] if name is None else [FIRST, name]
    first = False
    while wanted:
        found = child.expect([w if isinstance(w, re.Pattern) else re.escape(w) for w in wanted])
        if wanted[found] is FIRST:
            first = child.match.group(1) == "moving first"
        wanted.pop(found)
    return first


def to_move(
    a: pexpect.spawn, b: pexpect.spawn, names: tuple[str | None, str | None] = (None, None)
) -> tuple[pexpect.spawn, pexpect.spawn]:
    """Returns (the person who moves first, the other) once both are paired; each person
    sees its opponent's name when given."""
    a_first = paired(a, names[0])
    b_first = paired(b, names[1])
    assert a_first != b_first
    return (a, b) if a_first else (b, a)


def agreed_and_left(*people: pexpect.spawn) -> None:
    """Expects each person to read that the draw was agreed, declines a rematch, and sees
    the client end."""
    for side in people:
        side.expect_exact("Draw agreed.")
        side.expect_exact("Again? [y/n] ")
        side.sendline("n")
        side.expect(pexpect.EOF)


@pytest.mark.timeout(90)
def test_names_chat_and_an_agreed_draw(relay: str, tmp_path: Path) -> None:
    room = fresh_room()
    ann_home, bob_home = str(tmp_path / "a"), str(tmp_path / "b")
    with (
        person("xand0", relay, room, "--name", "Ann", XDG_CONFIG_HOME=ann_home) as ann,
        person("xand0", relay, room, "--name", "Bob <b>", XDG_CONFIG_HOME=bob_home) as bob,
    ):
        names = ("You play against Bob <b>.", "You play against Ann.")
        mover, other = to_move(ann, bob, names)
        mover.sendline("/say hello <script>alert(1)</script>")
        name = "Ann" if mover is ann else "Bob <b>"
        other.expect_exact(f"{name}: hello <script>alert(1)</script>")
        # Commands work on either side, also while the opponent thinks.
        other.sendline("/draw")
        other.expect_exact("Draw offered.")
        mover.expect_exact("Your opponent offers a draw: /yes or /no.")
        mover.sendline("/yes")
        agreed_and_left(ann, bob)


@pytest.mark.timeout(60)
def test_a_name_given_once_is_used_again_with_the_same_player_key_file(
    relay: str, tmp_path: Path
) -> None:
    home = {"XDG_CONFIG_HOME": str(tmp_path)}
    room = fresh_room()
    with (
        person("xand0", relay, room, "--name", "Ann", **home) as ann,
        person("xand0", relay, room, XDG_CONFIG_HOME=str(tmp_path / "other")) as other,
    ):
        other.expect_exact("You play against Ann.")
        ann.expect(FIRST)
        for side in (ann, other):
            side.sendintr()
    room = fresh_room()
    with (
        person("xand0", relay, room, **home) as ann,
        person("xand0", relay, room, XDG_CONFIG_HOME=str(tmp_path / "other")) as other,
    ):
        other.expect_exact("You play against Ann.")
        ann.expect(FIRST)
        for side in (ann, other):
            side.sendintr()


@pytest.mark.timeout(90)
def test_a_move_taken_back_and_a_takeback_declined(relay: str) -> None:
    room = fresh_room()
    with person("xand0", relay, room) as a, person("xand0", relay, room) as b:
        mover, other = to_move(a, b)
        mover.expect(PROMPT)
        mover.sendline("11")
        other.expect(PROMPT)
        other.sendline("00")
        mover.expect(PROMPT)
        mover.sendline("/takeback")
        mover.expect_exact("Takeback asked.")
        other.expect_exact("Your opponent asks to take back their last move: /yes or /no.")
        other.sendline("/no")
        mover.expect_exact("Your opponent declined to take the move back.")
        mover.sendline("22")
        other.expect(PROMPT)
        other.sendline("/takeback")
        mover.expect_exact("Your opponent asks to take back their last move: /yes or /no.")
        mover.sendline("/yes")
        for side in (mover, other):
            side.expect_exact("The move was taken back.")
        # The asker (other) is to move again, on the board before its move "00" was made.
        other.expect(PROMPT)
        other.sendline("00")
        mover.expect_exact("Your opponent played 00.")
        for side in (a, b):
            side.sendintr()


@pytest.mark.timeout(90)
def test_the_opponent_leaving_is_told_with_the_time_to_come_back(
    relay: str, tmp_path: Path
) -> None:
    room = fresh_room()
    with person("xand0", relay, room) as stays:
        home = str(tmp_path)
        with person("xand0", relay, room, "--name", "Leaver", XDG_CONFIG_HOME=home) as leaves:
            stays.expect_exact("You play against Leaver.")
            leaves.expect_exact("Paired")
            leaves.kill(9)
        stays.expect(r"Your opponent disconnected: \d+ s to come back\.", timeout=15)
        stays.sendintr()


@pytest.mark.timeout(90)
def test_a_muted_opponents_chat_is_hidden_and_a_report_reaches_the_relay(
    relay: str, tmp_path: Path
) -> None:
    room = fresh_room()
    ann_home, bob_home = str(tmp_path / "a"), str(tmp_path / "b")
    with (
        person("xand0", relay, room, "--rated", "--name", "Ann", XDG_CONFIG_HOME=ann_home) as ann,
        person("xand0", relay, room, "--rated", "--name", "Bob", XDG_CONFIG_HOME=bob_home) as bob,
    ):
        to_move(ann, bob, ("You play against Bob.", "You play against Ann."))
        bob.sendline("/say first words")
        ann.expect_exact("Bob: first words")
        ann.sendline("/mute")
        ann.expect_exact("Muted: their chat is hidden.")  # kept with Ann's player key
        bob.sendline("/say hidden words")
        bob.sendline("/draw")
        ann.expect_exact("Your opponent offers a draw: /yes or /no.")
        assert "hidden words" not in (ann.before or "")
        ann.sendline("/report chat says things")
        ann.expect_exact("Reported to the host. Thank you.")
        ann.sendline("/report nonsense")
        ann.expect_exact("Say what you report")
        ann.sendline("/yes")
        agreed_and_left(ann, bob)

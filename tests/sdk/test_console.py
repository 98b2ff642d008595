"""sdk.console: the doc's terminal Count to 21 in a pseudo-terminal, against a bot, through a
real relay: prompts that keep the loop polling, bad lines, Ctrl-C and Ctrl-D resigning."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tests.sdk.count21 import DOCS, ROOT, example

COUNT = re.compile(r"The count is (\d+)\.")


@pytest.fixture
def scripts(tmp_path: Path) -> Path:
    """Writes the docs' count21.py and console21.py to a folder; returns it."""
    found = re.search(
        r"<!-- example: console21 -->\n```python\n(.*?)```", DOCS[1].read_text(), re.S
    )
    assert found is not None, "docs/sdk.md has no console21 example"
    (tmp_path / "count21.py").write_text(example())
    (tmp_path / "console21.py").write_text(found.group(1))
    return tmp_path


def env(folder: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}


def bot(folder: Path, relay: str, room: str) -> subprocess.Popen[str]:
    """Starts the README's self-playing count21.py in the room."""
    return subprocess.Popen(
        [sys.executable, str(folder / "count21.py"), relay, room],
        cwd=folder,
        env=env(folder),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def match(scripts: Path, relay_url: str) -> Iterator[tuple[pexpect.spawn, subprocess.Popen[str]]]:
    """A person's console21.py in a pseudo-terminal and a bot, paired in a fresh room."""
    room = "console-" + secrets.token_hex(6)
    partner = bot(scripts, relay_url, room)
    person = pexpect.spawn(
        sys.executable,
        [str(scripts / "console21.py"), relay_url, room],
        cwd=str(scripts),
        env=env(scripts),
        encoding="utf-8",
        timeout=20,
    )
    try:
        yield person, partner
    finally:
        person.close(force=True)
        partner.kill()
        partner.communicate(timeout=10)


@pytest.mark.timeout(60)
def test_a_person_counts_to_21_at_the_keyboard(
    match: tuple[pexpect.spawn, subprocess.Popen[str]],
) -> None:
    person, partner = match
    tried = False
    while person.expect([r"The count is (\d+)\.", r"(won|lost) \(agreed\) at 21"]) == 0:
        total = int(person.match.group(1))
        person.expect_exact("Your number: ")
        if not tried:  # a bad line is explained and asked again
            tried = True
            person.sendline("99")
            person.expect_exact(f"Say a number from {total + 1} to {min(total + 3, 21)}.")
            person.expect_exact("Your number: ")
        person.sendline(str(min(total + 3, 21)))
    mine = person.match.group(1)
    out, _ = partner.communicate(timeout=20)
    assert out.strip() == ("lost (agreed)" if mine == "won" else "won (agreed)")
    person.expect(pexpect.EOF)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("leave", "said"),
    [("eof", "End of input: resigning."), ("intr", "Interrupted: resigning.")],
    ids=["ctrl-d", "ctrl-c"],
)
def test_ctrl_c_or_the_end_of_input_resigns(
    match: tuple[pexpect.spawn, subprocess.Popen[str]], leave: str, said: str
) -> None:
    person, partner = match
    person.expect_exact("Your number: ")
    if leave == "eof":
        person.sendeof()
    else:
        person.sendintr()
    person.expect_exact(said)
    person.expect(r"lost \(resigned\) at \d+")
    person.expect(pexpect.EOF)
    out, _ = partner.communicate(timeout=20)
    assert out.splitlines() == ["Your partner resigned: you win.", "won (resigned)"]

"""docs/examples.md shows the code as it is and the options as they are."""

from __future__ import annotations

import re
from pathlib import Path

from examples.connect4.terminal import CONNECT4
from examples.dots.terminal import DOTS
from examples.text.cli import parse_args
from examples.xand0.terminal import XAND0

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "examples.md").read_text()


def test_every_excerpt_is_verbatim_from_its_file() -> None:
    excerpts = re.findall(r"<!-- excerpt: (\S+) -->\n```python\n(.*?)```", DOC, re.S)
    assert len(excerpts) >= 4
    for path, code in excerpts:
        assert code in (ROOT / path).read_text(), f"docs/examples.md is out of date with {path}"


def test_the_commands_shown_parse() -> None:
    commands = re.findall(
        r"python3 -m examples\.(\w+) (--relay \S+(?: --[\w-]+(?: [\w-]+)?)*)", DOC
    )
    assert len(commands) >= 4
    clients = {"xand0": XAND0, "connect4": CONNECT4, "dots": DOTS}
    for game, arguments in commands:
        parse_args(clients[game], arguments.split())

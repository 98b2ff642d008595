"""docs/kits.md lists the kits' public names as they are, and its example game plays."""

from __future__ import annotations

import dataclasses
import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from examples import board
from examples.board import Rules, StartingPosition
from sdk import Reason, Result
from sdk.testing import run_pair

from .kit_members import members

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "kits.md").read_text()


def section(title: str) -> str:
    """Returns the text of the doc's section under a '## ' heading."""
    found: list[str] = re.findall(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", DOC, re.S | re.M)
    (text,) = found
    return text


def first_column(text: str) -> set[str]:
    """Returns the names in backticks in the first column of a section's table."""
    names: set[str] = set()
    for cell in re.findall(r"^\| (.+?) \|", text, re.M):
        names |= {name.split("(")[0] for name in re.findall(r"`([^`]+)`", cell)}
    return names


def test_the_board_kit_names_are_exactly_its_all() -> None:
    assert first_column(section("What the board kit gives")) == set(board.__all__)


def test_every_board_kit_name_is_importable() -> None:
    for name in board.__all__:
        assert getattr(board, name) is not None, name


def test_the_text_kit_names_are_in_their_modules_all() -> None:
    names = first_column(section("What the text kit gives"))
    assert names == {"movewire_games.text.client.TextGame", "movewire_games.text.cli.main"}
    for dotted in names:
        module, name = dotted.replace("movewire_games.", "examples.", 1).rsplit(".", 1)
        assert name in importlib.import_module(module).__all__, dotted


def test_the_position_members_are_the_protocols() -> None:
    assert first_column(section("The position protocol")) == members(StartingPosition)


def test_the_rules_fields_are_the_dataclass() -> None:
    fields = {field.name for field in dataclasses.fields(Rules)}
    assert first_column(section("What the board kit needs of your rules")) == fields


@pytest.fixture
def twentyone() -> Iterator[ModuleType]:
    """Returns the doc's example as a module, importing the kits from the checkout."""
    (code,) = re.findall(r"<!-- example: twentyone -->\n```python\n(.*?)```", DOC, re.S)
    module = ModuleType("twentyone")
    sys.modules["twentyone"] = module  # the dataclass looks its module up
    try:
        exec(compile(code.replace("movewire_games.", "examples."), "kits.md", "exec"), vars(module))
        yield module
    finally:
        del sys.modules["twentyone"]


def test_the_example_game_plays_through_a_relay(twentyone: ModuleType) -> None:
    spec = twentyone.TWENTYONE
    assert (spec.key, spec.title, spec.levels) == ("twentyone", "Twenty-one", (1, 2))
    assert twentyone.render(twentyone.Board(5, 2), 3, False) == "Total: 5 (+3) of 21"
    pair = run_pair(twentyone.TwentyOneBot, twentyone.TwentyOneBot, game_key="twentyone")
    assert {outcome.result for outcome in pair.outcomes} == {Result.WON, Result.LOST}
    assert {outcome.reason for outcome in pair.outcomes} == {Reason.AGREED}
    # The rules' words went with the game-ending move, and both sides were told them.
    assert [outcome.detail for outcome in pair.outcomes] == ["reached 21", "reached 21"]
    assert sorted(message for outcome in pair.outcomes for message in [outcome.message]) == [
        "You lose: reached 21.", "You win: reached 21.",
    ]  # fmt: skip

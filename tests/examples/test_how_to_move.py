"""The line that tells a person at the terminal how to move reads as one plain sentence with
each example game's words in it, with Enter, resigning and /help after it."""

from __future__ import annotations

from typing import Any

import pytest

from examples.connect4.terminal import CONNECT4
from examples.dots.terminal import DOTS
from examples.text.client import TextGame
from examples.text.person import HOW_TO_MOVE
from examples.xand0.terminal import XAND0


@pytest.mark.parametrize("spec", [XAND0, CONNECT4, DOTS], ids=lambda spec: spec.title)
def test_how_to_move_is_one_sentence_then_the_keys(spec: TextGame[Any]) -> None:
    said = HOW_TO_MOVE.format(how=spec.how_to_move)
    sentence, keys = said.split(". Enter", 1)
    assert sentence == f"To move, type {spec.how_to_move}"
    assert not spec.how_to_move.endswith("."), said  # no full stop twice
    assert "then Enter" not in said and keys.startswith(" sends it;"), said

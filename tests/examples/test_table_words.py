"""What the terminal's table says when the relay refuses a command: the relay's words, never
its status and code, and an answer to an offer that the match moved past is told as lapsed."""

from __future__ import annotations

from typing import Any, cast

from examples.text.table import LAPSED, TableTalk
from sdk import RelayHost, RelayRefusedError

STALE = RelayRefusedError(409, "turn/stale", "'after' is not the number of the match's last event.")
"""What the relay answers an answer whose offer a move (or another answer) overtook."""


class Refusing:
    """Stands in for a seated RelayHost whose every call the relay refuses with `error`."""

    def __init__(self, error: RelayRefusedError) -> None:
        self.error = error

    async def answer_offer(self, accept: bool) -> Any:
        raise self.error

    async def offer_draw(self) -> Any:
        raise self.error


async def told(error: RelayRefusedError, line: str) -> list[str]:
    """Returns what the table says when `line` is typed and the relay refuses it with error."""
    said: list[str] = []
    host = cast(RelayHost, Refusing(error))
    talk = TableTalk(said.append, lambda: host)
    assert await talk.command(line)
    return said


async def test_an_answer_to_a_lapsed_offer_says_it_lapsed() -> None:
    assert await told(STALE, "/yes") == [LAPSED]
    assert await told(STALE, "/no") == [LAPSED]


async def test_any_other_refusal_is_told_in_the_relays_words_alone() -> None:
    said = await told(RelayRefusedError(429, "limit/offers", "Too many offers: wait 3 s."), "/draw")
    assert said == ["Not now: Too many offers: wait 3 s."]
    assert "409" not in (await told(STALE, "/draw"))[0]

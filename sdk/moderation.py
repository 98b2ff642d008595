"""A player's own moderation: the keys it blocked or muted, as the relay lists them, and what
a report may be about (docs/protocol.md#moderation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sdk.errors import ProtocolError

__all__ = ["ERASED", "REPORT_ABOUT", "BlockKind", "Blocked", "ReportAbout", "parse_blocks"]

BlockKind = Literal["block", "mute"]
"""A block: never paired again, and its chat hidden; a mute: its chat hidden only."""

ReportAbout = Literal["play", "name", "chat"]
"""What a report is about: how the partner played, its name, its chat."""

REPORT_ABOUT: tuple[ReportAbout, ...] = ("play", "name", "chat")
"""Every ReportAbout, in the order clients offer them."""

ERASED = "(removed by the host)"
"""How a client shows a chat line the host erased (the relay answers its text as '')."""

NOT_BLOCKS = "The relay answered something that is not a list of blocks: {body!r}."


@dataclass(frozen=True, slots=True)
class Blocked:
    """A key the player blocked or muted: its public id, its name then, the kind, when."""

    id: str
    name: str | None
    kind: BlockKind
    at: float


def parse_blocks(answer: Any) -> list[Blocked]:
    """Returns the blocks of GET or POST /v1/player/blocks; raises ProtocolError."""
    try:
        found = []
        for row in answer["blocks"]:
            kind = row["kind"]
            if kind not in ("block", "mute"):
                raise ValueError(kind)
            name = row["name"]
            found.append(
                Blocked(str(row["id"]), None if name is None else str(name), kind, float(row["at"]))
            )
        return found
    except (KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_BLOCKS.format(body=answer)) from None

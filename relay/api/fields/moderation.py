"""Moderation's fields: a ban's target, a block's kind, what a report is about and its own
words."""

from __future__ import annotations

import ipaddress

from relay.core.errors import RelayError
from relay.core.moderation import PUBLIC_ID, REPORT_ABOUT, REPORT_TEXT, BlockKind
from relay.core.text_policy import chat_line

__all__ = ["ban_target", "block_kind", "report_about", "report_text"]


def ban_target(value: object) -> str:
    """Returns a ban's target, canonical: 'id:' and a public id, or an address network in
    CIDR form (a lone address is its /32 or /128); raises request/invalid for anything else."""
    if isinstance(value, str):
        if value.startswith("id:") and PUBLIC_ID.fullmatch(value[3:]):
            return value
        if PUBLIC_ID.fullmatch(value):
            return f"id:{value}"
        try:
            return str(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            pass
    raise RelayError(
        "request/invalid",
        f"The field 'target' must be a player's public id (12 characters, as leaderboards "
        f"and reports show it) or an address range such as '203.0.113.0/24', not {value!r}.",
    )


def block_kind(value: object) -> BlockKind | None:
    """Returns a block request's kind: 'block', 'mute', or None for 'none' (lift it)."""
    if value == "block":
        return "block"
    if value == "mute":
        return "mute"
    if value == "none":
        return None
    raise RelayError(
        "request/invalid", f"The field 'kind' must be 'block', 'mute' or 'none', not {value!r}."
    )


def report_about(value: object) -> str:
    """Returns what a report is about, or raises request/invalid."""
    if value in REPORT_ABOUT:
        return str(value)
    raise RelayError(
        "request/invalid",
        f"The field 'about' must be one of {', '.join(REPORT_ABOUT)}, not {value!r}.",
    )


def report_text(value: object) -> str:
    """Returns a report's own words, clean (the rules of chat; '' for none), or raises
    request/invalid."""
    if value is None or value == "":
        return ""
    return chat_line(value, REPORT_TEXT)

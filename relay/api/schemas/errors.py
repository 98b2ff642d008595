"""The schema of every refusal: an error code (relay.core.errors) and its message."""

from __future__ import annotations

from typing import Any

from relay.core.errors import CODES

__all__ = ["REPLIES", "SCHEMAS"]

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string", "enum": sorted(CODES)},
                    "message": {"type": "string"},
                },
            }
        },
    },
}

REPLIES: dict[str, str] = {}
"""Errors are no successful answer."""

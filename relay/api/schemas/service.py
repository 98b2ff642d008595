"""The schemas of the service's own routes: its health."""

from __future__ import annotations

from typing import Any

__all__ = ["REPLIES", "SCHEMAS"]

SCHEMAS: dict[str, Any] = {
    "Health": {"type": "object", "properties": {"ok": {"const": True}}},
}

REPLIES = {"Health": "Alive."}
"""What a successful answer of each reply schema says."""

"""X and 0 (tic-tac-toe): pure rules in ``rules`` and a computer opponent in ``bot``."""

from __future__ import annotations

__all__: list[str] = []

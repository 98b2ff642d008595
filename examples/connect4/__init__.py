"""Connect Four: pure rules in ``rules``, the classic engine in ``classic``, a strong ``bot``."""

from __future__ import annotations

__all__: list[str] = []

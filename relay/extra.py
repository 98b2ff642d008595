"""Checks, at the relay's first import, that its own dependencies are installed: they come with
the `relay` extra, not with the SDK. prometheus-client is only found here, not imported (the
relay imports it at the first scrape of /metrics)."""

from __future__ import annotations

import importlib.util

__all__ = ["NEEDED"]

NEEDED = ("httptools", "prometheus_client")
"""The relay's own modules that the SDK alone does not install."""

for _needed in NEEDED:
    if importlib.util.find_spec(_needed) is None:
        raise ModuleNotFoundError(
            f"the relay needs its own dependencies ({_needed} is missing): "
            "pip install 'movewire[relay]'",
            name=_needed,
        )

"""`python -m tests.support.loopback_push_relay OPTIONS`: the relay (`python -m relay`) with
pushes allowed to plain http on a loopback address (Config.push_loopback), so that a relay
process pushes to the tests' local push service (tests/support/push_service.py). A relay
started otherwise refuses such a subscription, as it must; no option of its own turns this on."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence

import relay.__main__ as relay_main
from relay.cli import parse_args
from relay.config import Config

__all__ = ["parse_loopback"]


def parse_loopback(argv: Sequence[str] | None = None) -> tuple[Config, str | None]:
    """Reads the relay's options as `python -m relay` does, pushes to loopback allowed."""
    config, unix = parse_args(argv)
    return dataclasses.replace(config, push_loopback=True), unix


if __name__ == "__main__":
    relay_main.parse_args = parse_loopback
    relay_main.main(sys.argv[1:])

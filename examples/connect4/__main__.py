"""`python -m examples.connect4 --relay URL [--room NAME] [--bot [LEVEL]]`: play Connect Four."""

from __future__ import annotations

from .terminal import main

if __name__ == "__main__":
    raise SystemExit(main())

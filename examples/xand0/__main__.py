"""`python -m examples.xand0 --relay URL [--room NAME] [--bot [LEVEL]]`: play X and 0."""

from __future__ import annotations

from .terminal import main

if __name__ == "__main__":
    raise SystemExit(main())

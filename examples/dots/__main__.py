"""`python -m examples.dots --relay URL [--room NAME] [--bot [LEVEL]]`: play Dots and Boxes."""

from __future__ import annotations

from .terminal import main

if __name__ == "__main__":
    raise SystemExit(main())

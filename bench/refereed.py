"""`python -m bench.refereed OPTIONS`: the relay (`python -m relay`), with Connect Four's
referee for `--referee connect4` to pick, as its installed game package gives it."""

from __future__ import annotations

import sys

from examples.connect4.referee import Connect4Referee
from relay.__main__ import main

if __name__ == "__main__":
    main(sys.argv[1:], referees={"connect4": Connect4Referee})

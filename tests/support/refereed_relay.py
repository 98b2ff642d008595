"""`python -m tests.support.refereed_relay OPTIONS`: the relay (`python -m relay`), with the
example games' referees for --referee to pick, as installed game packages give them, and two
of the tests' own: 'broken' (its referee raises), 'odd' (it answers what is no verdict) and
'slow' (it takes 0.8 s)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence

from examples.connect4.referee import Connect4Referee
from examples.dots.referee import DotsReferee
from examples.xand0.referee import Xand0Referee
from relay.__main__ import main
from sdk.referee import Legal

__all__ = ["REFEREES", "Broken", "Odd", "Slow"]


class Broken:
    """A referee that fails on every match."""

    def judge(self, plays: Sequence[object]) -> object:
        """Raises."""
        raise RuntimeError("this referee is broken")


class Odd:
    """A referee that answers something that is not a verdict."""

    def judge(self, plays: Sequence[object]) -> object:
        """Returns a string."""
        return "over, I think"


class Slow:
    """A referee that takes 0.8 s over every match, then finds it legal."""

    def judge(self, plays: Sequence[object]) -> object:
        """Sleeps, then returns a legal verdict."""
        time.sleep(0.8)
        return Legal()


REFEREES: dict[str, Callable[[], object]] = {
    "xand0": Xand0Referee,
    "connect4": Connect4Referee,
    "dots": DotsReferee,
    "broken": Broken,
    "odd": Odd,
    "slow": Slow,
}
"""The referee factory of each game, by name."""

if __name__ == "__main__":
    main(sys.argv[1:], referees=REFEREES)

"""How long a host waits: poll holds, request timeouts, and backoff between retries."""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["Timing"]


@dataclass(frozen=True, slots=True)
class Timing:
    """The timings of a host's requests; the defaults suit the relay's defaults."""

    poll_wait: int = 6
    """Whole seconds the relay is asked to hold a poll (`wait=`); keep it under its grace."""
    poll_margin: float = 3.0
    """Seconds a held request's answer may come after its hold before the connection is
    taken for dead and the request retried: with the default hold, a player whose network
    died silently is told within 10 s."""
    request_timeout: float = 10.0
    """Seconds any other request may take before it is retried."""
    backoff_base: float = 0.2
    """Seconds: the ceiling of the first retry's random delay; it doubles with each retry."""
    backoff_cap: float = 5.0
    """Seconds: the largest ceiling a retry's random delay can reach."""
    give_up: float = 60.0
    """Seconds a request may keep failing before the host gives the connection up for lost."""
    first_contact: float = 5.0
    """Seconds a client's very first request may keep failing to get any answer before the
    relay counts as unreachable (a mistyped URL fails fast); once it has answered, `give_up`."""

    def __post_init__(self) -> None:
        if type(self.poll_wait) is not int or self.poll_wait < 1:
            raise ValueError(f"poll_wait must be a whole number >= 1, not {self.poll_wait!r}")
        names = ("poll_margin", "request_timeout", "backoff_base", "backoff_cap", "give_up")
        for name in (*names, "first_contact"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be > 0, not {getattr(self, name)!r}")

    @property
    def poll_timeout(self) -> float:
        """Returns the seconds a poll may take before it is abandoned and retried."""
        return self.poll_wait + self.poll_margin

    def backoff(self, attempt: int, rng: random.Random, retry_after: float | None = None) -> float:
        """Returns the seconds to wait before retry number `attempt` (0 for the first).

        Full jitter: a uniform delay up to `backoff_base * 2**attempt`, capped at `backoff_cap`.
        A relay's `Retry-After` is honoured: the delay is then at least that long.
        """
        ceiling = min(self.backoff_cap, self.backoff_base * 2.0 ** min(attempt, 64))
        delay = rng.uniform(0.0, ceiling)
        if retry_after is not None:
            delay = max(delay, retry_after + rng.uniform(0.0, self.backoff_base))
        return delay

"""Per-client rate limits, kept in each relay process."""

from __future__ import annotations

__all__ = ["RateLimiter"]


class RateLimiter:
    """A token bucket per client: `per_minute` requests a minute, in bursts up to that many."""

    def __init__(self, per_minute: int, max_clients: int = 100_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(per_minute)
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str, now: float) -> float:
        """Takes one token for client; returns 0 when allowed, else seconds until allowed."""
        tokens, then = self._buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate
        if len(self._buckets) >= self.max_clients and client not in self._buckets:
            self._forget_full(now)
        self._buckets[client] = (tokens - 1.0, now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        """Drops the clients whose buckets have refilled: they are as good as new."""
        refill = self.burst / self.rate
        self._buckets = {
            client: (tokens, then)
            for client, (tokens, then) in self._buckets.items()
            if now - then < refill
        }

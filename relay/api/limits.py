"""Per-client rate limits, kept in each relay process."""

from __future__ import annotations

__all__ = ["RateLimiter"]


class RateLimiter:
    """A token bucket per client: `rate` requests a second, in bursts of up to `burst`."""

    def __init__(self, rate: float, burst: float, max_clients: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}
        self.sweeps = 0
        """Times the limiter has looked over every client to make room (see _make_room)."""

    @classmethod
    def per_minute(cls, count: int) -> RateLimiter:
        """Returns a limiter of `count` requests a minute, all of which may come at once."""
        return cls(count / 60.0, float(count))

    def take(self, client: str, now: float) -> float:
        """Takes one token for client; returns 0 when allowed, else seconds until allowed."""
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= self.max_clients:
                self._make_room(now)
            self._buckets[client] = (self.burst - 1.0, now)
            return 0.0
        tokens = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[client] = (tokens - 1.0, now)
        return 0.0

    def _make_room(self, now: float) -> None:
        """Drops the clients whose buckets have refilled (they are as good as new), and, while
        fewer than a tenth of the clients could go, also the ones first seen longest ago (a
        flood of new addresses): each look over every client makes room for a tenth more,
        so a new client costs a tenth of a look at most, not a whole one."""
        self.sweeps += 1
        refill = self.burst / self.rate
        kept = {
            client: (tokens, then)
            for client, (tokens, then) in self._buckets.items()
            if now - then < refill
        }
        spare = self.max_clients // 10 + 1
        if self.max_clients - len(kept) < spare:
            extra = len(kept) - (self.max_clients - spare)
            kept = dict(list(kept.items())[extra:])
        self._buckets = kept

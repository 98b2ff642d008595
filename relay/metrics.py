"""Prometheus metrics of one relay process."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest

from relay.store import Status

__all__ = ["RelayMetrics"]


class RelayMetrics:
    """The counters and gauges a relay process exports at /metrics."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.matches = Gauge(
            "relay_matches", "Matches in the store, by status.", ["status"], registry=self.registry
        )
        self.held_polls = Gauge(
            "relay_held_polls", "Polls held open by this process.", registry=self.registry
        )
        self.moves = Counter(
            "relay_moves_relayed",
            "Moves and passes accepted by this process.",
            registry=self.registry,
        )
        self.errors = Counter(
            "relay_errors",
            "Error answers by this process, by code.",
            ["code"],
            registry=self.registry,
        )

    def render(self, counts: dict[Status, int]) -> bytes:
        """Returns the metrics in Prometheus text format, with the store's counts."""
        for status, count in counts.items():
            self.matches.labels(status.value).set(count)
        return generate_latest(self.registry)

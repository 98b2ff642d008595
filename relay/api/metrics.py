"""Prometheus metrics of one relay process.

The hot path only adds to plain integers; prometheus-client reads them when /metrics is
scraped (a custom collector), so no lock is taken per move or poll. prometheus-client itself
is imported at the first scrape, not at the relay's start (it costs a tenth of a start)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from relay.core.model import Status

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry
    from prometheus_client.core import Metric

__all__ = ["SHARED", "RelayMetrics", "hot_path"]

SHARED = frozenset({"relay_matches", "relay_matches_ended", "relay_build_info"})
"""The families every process of a box reads alike (from the shared store, or its build):
the box's /metrics under --workers N (relay/box/) takes each once, where every other family,
the process's own, is summed over the workers."""


def hot_path() -> str:
    """Returns 'compiled' when the modules every move goes through run compiled (a wheel built
    with a C compiler, see hatch_build.py), else 'pure Python' (a checkout, an editable
    install, a machine without a compiler)."""
    from relay.api import calls

    return "pure Python" if calls.__file__.endswith(".py") else "compiled"


class RelayMetrics:
    """The counters and gauges a relay process exports at /metrics (a prometheus-client
    collector)."""

    def __init__(self) -> None:
        self.moves = 0
        """Moves and passes accepted by this process."""
        self.held_polls = 0
        """Seats' requests held open by this process now: event polls, move posts with ?wait=."""
        self.errors: Counter[str] = Counter()
        """Error answers by this process, by code."""
        self.matches: dict[Status, int] = {}
        """Matches in the store by status, as of the last scrape."""
        self.heard = 0
        """Event notices this process heard from the store, as of the last scrape."""
        self.endings: dict[str, int] = {}
        """Matches the store ended by reason, as of the last scrape."""
        self.webhooks: Counter[str] = Counter()
        """Your-turn webhook deliveries by outcome: sent, retried, failed, dropped."""
        self.pushes: Counter[str] = Counter()
        """Web Push's pushes by outcome: delivered, gone, failed, retried, dropped."""
        self.referee_over_budget = 0
        """Referees' judgements given up at --referee-budget, as of the last scrape."""
        self._registry: CollectorRegistry | None = None
        """The prometheus-client registry that reads this collector (made at the first
        scrape)."""

    def collect(self) -> Iterator[Metric]:
        """Yields the metrics (prometheus-client calls this at each scrape)."""
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        matches = GaugeMetricFamily(
            "relay_matches", "Matches in the store, by status.", labels=["status"]
        )
        for status, count in self.matches.items():
            matches.add_metric([status.value], count)
        yield matches
        ended = CounterMetricFamily(
            "relay_matches_ended",
            "Matches the store ended since it began, by the ended event's reason (every "
            "process's together on a shared store): agreed, resigned, timeout, abandoned...",
            labels=["reason"],
        )
        for reason, count in sorted(self.endings.items()):
            ended.add_metric([reason], count)
        yield ended
        yield GaugeMetricFamily(
            "relay_held_polls",
            "Seats' polls and move posts with ?wait= held open by this process.",
            value=self.held_polls,
        )
        yield CounterMetricFamily(
            "relay_moves_relayed", "Moves and passes accepted by this process.", value=self.moves
        )
        yield CounterMetricFamily(
            "relay_store_notices",
            "Notices of new events this process heard from the store (Redis): one per event "
            "per process that waits for an event of its parity in its match.",
            value=self.heard,
        )
        errors = CounterMetricFamily(
            "relay_errors", "Error answers by this process, by code.", labels=["code"]
        )
        for code, count in sorted(self.errors.items()):
            errors.add_metric([code], count)
        yield errors
        webhooks = CounterMetricFamily(
            "relay_webhook_deliveries",
            "Your-turn webhook deliveries by this process, by outcome: sent, retried (an "
            "attempt failed, another follows), failed (given up or refused), dropped (a full "
            "queue, or the shared state unreachable).",
            labels=["outcome"],
        )
        for outcome, count in sorted(self.webhooks.items()):
            webhooks.add_metric([outcome], count)
        yield webhooks
        pushes = CounterMetricFamily(
            "relay_pushes",
            "Web Push's pushes to browsers by this process, by outcome: delivered, gone (404 "
            "or 410: the subscription dropped), failed (given up or refused), retried (an "
            "attempt failed, another follows), dropped (a full queue, or the store "
            "unreachable).",
            labels=["outcome"],
        )
        for outcome, count in sorted(self.pushes.items()):
            pushes.add_metric([outcome], count)
        yield pushes
        yield CounterMetricFamily(
            "relay_referee_over_budget",
            "Referees' judgements this process gave up at --referee-budget (each match then "
            "handled as if its game had no referee).",
            value=self.referee_over_budget,
        )
        build = GaugeMetricFamily(
            "relay_build_info",
            "The build this process runs: its hot path compiled (a wheel) or pure Python.",
            labels=["hot_path"],
        )
        build.add_metric([hot_path()], 1)
        yield build

    def render(
        self, counts: dict[Status, int], heard: int = 0, endings: dict[str, int] | None = None
    ) -> bytes:
        """Returns the metrics in Prometheus text format, with the store's counts, the
        notices this process heard from it, and the store's endings by reason."""
        self.matches = counts
        self.heard = heard
        self.endings = endings or {}
        from prometheus_client import CollectorRegistry, generate_latest

        if self._registry is None:
            self._registry = CollectorRegistry()
            self._registry.register(self)  # a collector by its collect()
        return generate_latest(self._registry)

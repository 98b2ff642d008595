"""The box's metrics: every worker's /metrics summed, with counters that never go backwards.

A worker's counters start at 0 when it starts again, so the box keeps, apart, the totals it
last read from every worker that has since exited (and any series of a live worker that
went down, a reset), and adds them to what the live workers count."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from prometheus_client import generate_latest
from prometheus_client.core import Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import Collector

from relay.api.metrics import SHARED

__all__ = ["BoxTotals", "Family", "parse"]

Labels = tuple[tuple[str, str], ...]
"""One series' labels, sorted by name."""

COUNTER = "counter"
GAUGE = "gauge"

NOTES = {
    (False, COUNTER): "Box: every worker's summed, with the totals last read from workers "
    "that have since exited.",
    (False, GAUGE): "Box: summed over the workers that answered.",
    (True, COUNTER): "Box: taken once, the highest any worker read.",
    (True, GAUGE): "Box: taken once, from the first worker that answered.",
}
"""What the box's value of a family is, by whether it is SHARED and its type."""


@dataclass(slots=True)
class Family:
    """One metric family read from a worker: its type, help, and value per series."""

    kind: str
    """'counter' or 'gauge'."""
    help: str
    values: dict[Labels, float] = field(default_factory=dict)


def parse(text: str) -> dict[str, Family]:
    """Returns the counter and gauge families of a worker's /metrics (Prometheus text),
    by name (a counter's without its _total); raises ValueError on a malformed text."""
    found: dict[str, Family] = {}
    for metric in text_string_to_metric_families(text):
        if metric.type not in (COUNTER, GAUGE):
            continue
        family = found.setdefault(metric.name, Family(metric.type, metric.documentation))
        sample_name = metric.name + "_total" if metric.type == COUNTER else metric.name
        for sample in metric.samples:
            if sample.name == sample_name:
                family.values[tuple(sorted(sample.labels.items()))] = sample.value
    return found


class _Families(Collector):
    """Metric families ready to render."""

    def __init__(self, families: list[Metric]) -> None:
        self.families = families

    def collect(self) -> Iterator[Metric]:
        """Yields the families."""
        return iter(self.families)


class BoxTotals:
    """The sums of what the box's workers answer at /metrics, by worker number (1..N)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.lock = threading.Lock()
        """Held through a scrape of every worker, and while an exited worker's totals are
        put aside: a worker started again never answers for the one it replaces."""
        self.last: dict[int, dict[str, Family]] = {}
        """Each live worker's last answer."""
        self.retired: dict[str, Family] = {}
        """The counters of workers that exited (and of series that went down), summed."""
        self.restarts = 0
        """Workers that exited and were started again."""

    def exited(self, number: int) -> None:
        """Puts aside the counters last read from worker `number`, which has exited."""
        with self.lock:
            last = self.last.pop(number, None)
            self.restarts += 1
            for name, family in (last or {}).items():
                for key, value in family.values.items():
                    self._retire(name, family, key, value)

    def scrape(self, ask: Callable[[], Mapping[int, dict[str, Family]]]) -> bytes | None:
        """Returns the box's metrics in Prometheus text format from the answers ask()
        gets from the workers that answer (by number), or None when none answers."""
        with self.lock:
            answers = dict(sorted(ask().items()))
            if not answers:
                return None
            for number, families in answers.items():
                self._check_resets(self.last.get(number, {}), families)
                self.last[number] = families
            return generate_latest(_Families(self._sums(answers)))

    def _check_resets(self, before: dict[str, Family], now: dict[str, Family]) -> None:
        """Puts aside a live worker's series that went down since its last answer."""
        for name, family in before.items():
            current = now.get(name)
            for key, value in family.values.items():
                if current is None or current.values.get(key, 0.0) < value:
                    self._retire(name, family, key, value)

    def _retire(self, name: str, family: Family, key: Labels, value: float) -> None:
        if family.kind != COUNTER or name in SHARED:
            return
        kept = self.retired.setdefault(name, Family(family.kind, family.help))
        kept.values[key] = kept.values.get(key, 0.0) + value

    def _sums(self, answers: dict[int, dict[str, Family]]) -> list[Metric]:
        """Returns the box's families: the workers' in the order they give them, then the
        box's own."""
        known: dict[str, Family] = {}
        for families in [*answers.values(), *self.last.values(), self.retired]:
            for name, family in families.items():
                known.setdefault(name, family)
        metrics = []
        for name, first in known.items():
            shared = name in SHARED
            read = [families[name] for families in answers.values() if name in families]
            if shared:
                values = _shared(read)
            elif first.kind == COUNTER:
                kept = [self.retired, *self.last.values()]
                values = _summed([families[name] for families in kept if name in families])
            else:
                values = _summed(read)
            help = f"{first.help} {NOTES[shared, first.kind]}"
            metrics.append(_metric(name, first.kind, help, values))
        states: dict[Labels, float] = {
            (("state", "answered"),): len(answers),
            (("state", "silent"),): self.workers - len(answers),
        }
        metrics.append(
            _metric(
                "relay_workers",
                GAUGE,
                "The box's relay processes, by whether they answered this scrape (the sums "
                "of gauges leave out the silent ones).",
                states,
            )
        )
        metrics.append(
            _metric(
                "relay_worker_restarts",
                COUNTER,
                "Relay processes of the box that exited and were started again.",
                {(): self.restarts},
            )
        )
        return metrics


def _summed(families: list[Family]) -> dict[Labels, float]:
    values: dict[Labels, float] = {}
    for family in families:
        for key, value in family.values.items():
            values[key] = values.get(key, 0.0) + value
    return dict(sorted(values.items()))


def _shared(families: list[Family]) -> dict[Labels, float]:
    if not families:
        return {}
    if families[0].kind == GAUGE:
        return dict(families[0].values)
    values: dict[Labels, float] = {}
    for family in families:
        for key, value in family.values.items():
            values[key] = max(values.get(key, value), value)
    return dict(sorted(values.items()))


def _metric(name: str, kind: str, help: str, values: Mapping[Labels, float]) -> Metric:
    metric = Metric(name, help, kind)
    sample = f"{name}_total" if kind == COUNTER else name
    for key, value in values.items():
        metric.add_sample(sample, dict(key), value)
    return metric

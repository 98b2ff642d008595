"""The box's sums of its workers' metrics (relay/box/totals.py), without processes."""

from __future__ import annotations

from relay.api.metrics import SHARED, RelayMetrics
from relay.box.totals import BoxTotals, Family, parse
from relay.core.model import Status
from tests.support.metrics import samples


def worker(moves: int, held: int = 0, playing: int = 0, ended: int = 0) -> dict[str, Family]:
    """Returns what a worker answers at /metrics with these counts, parsed."""
    metrics = RelayMetrics()
    metrics.moves = moves
    metrics.held_polls = held
    metrics.errors["turn/not_yours"] = moves // 2
    text = metrics.render({Status.PLAYING: playing}, moves, {"agreed": ended} if ended else {})
    return parse(text.decode())


def scrape(box: BoxTotals, answers: dict[int, dict[str, Family]]) -> dict[str, float]:
    body = box.scrape(lambda: answers)
    assert body is not None
    return samples(body.decode())


def test_every_family_of_a_worker_is_a_counter_or_a_gauge_and_shared_ones_exist() -> None:
    families = worker(1)
    assert {family.kind for family in families.values()} == {"counter", "gauge"}
    assert set(SHARED) <= set(families)


def test_counters_and_held_polls_are_summed_shared_families_taken_once() -> None:
    box = BoxTotals(2)
    taken = scrape(box, {1: worker(3, held=2, playing=5, ended=1), 2: worker(4, 1, 5, 2)})
    assert taken["relay_moves_relayed_total"] == 7
    assert taken["relay_store_notices_total"] == 7
    assert taken['relay_errors_total{code="turn/not_yours"}'] == 1 + 2
    assert taken["relay_held_polls"] == 3
    assert taken['relay_matches{status="playing"}'] == 5  # the store's, not twice
    assert taken['relay_matches_ended_total{reason="agreed"}'] == 2  # the latest read
    assert taken['relay_build_info{hot_path="pure Python"}'] == 1
    assert taken['relay_workers{state="answered"}'] == 2


def test_an_exited_workers_totals_are_kept_and_a_silent_one_is_not_lost() -> None:
    box = BoxTotals(2)
    scrape(box, {1: worker(10, held=3), 2: worker(5)})
    silent = scrape(box, {2: worker(6)})  # worker 1 does not answer: its last counts stay
    assert silent["relay_moves_relayed_total"] == 16
    assert silent["relay_held_polls"] == 0  # a gauge of the silent worker is left out
    assert silent['relay_workers{state="silent"}'] == 1
    box.exited(1)
    after = scrape(box, {1: worker(2), 2: worker(6)})  # started again, from 0
    assert after["relay_moves_relayed_total"] == 10 + 2 + 6
    assert after["relay_worker_restarts_total"] == 1


def test_a_series_that_goes_down_without_an_exit_counts_as_a_reset() -> None:
    box = BoxTotals(1)
    scrape(box, {1: worker(10)})
    assert scrape(box, {1: worker(3)})["relay_moves_relayed_total"] == 13


def test_no_worker_answering_is_no_answer() -> None:
    assert BoxTotals(2).scrape(dict) is None

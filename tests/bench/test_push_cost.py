"""The push cost bench runs: a move's CPU with Web Push off and on, both measured."""

from __future__ import annotations

import pytest

from bench import push_cost

pytestmark = pytest.mark.timeout(60)


def test_the_bench_measures_a_move_with_push_off_and_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(push_cost, "MOVES", 300)
    monkeypatch.setattr(push_cost, "ROUNDS", 1)
    figures = push_cost.measure()
    assert set(figures) == {"off", "on"}
    assert all(0 < value < 10_000 for value in figures.values())

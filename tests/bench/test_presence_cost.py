"""The presence-cost run counts every idle poll and the relay's CPU, per match per minute."""

from __future__ import annotations

from bench.presence_cost import measure_all


def test_a_shorter_hold_costs_more_polls_in_proportion() -> None:
    # Short holds, so that the run is quick: a 2 s hold beside a 1 s one.
    long, short = measure_all(3, 2.0, (("2 s", 2, 2), ("1 s", 1, 1)))
    for cost in (long, short):
        assert cost.requests > 0 and cost.cpu_s >= 0
        # Each seat polls again as each hold ends: 2 seats x 60 / hold, give or take the polls
        # at the window's two edges (a few seconds here; the bench counts 30).
        hold = 2 if cost is long else 1
        assert 0.5 * 120 / hold <= cost.requests_per_match_minute <= 1.5 * 120 / hold, cost
    assert short.requests_per_match_minute > 1.5 * long.requests_per_match_minute
    assert short.row()["config"] == "1 s" and long.row()["matches"] == 3

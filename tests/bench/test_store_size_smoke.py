"""`python -m bench.store_size` on a few matches: every kind of key rated play writes is
measured, and the totals are whole figures."""

from __future__ import annotations

import json

import pytest

from bench.store_size import main
from tests.support.redis_server import session_redis


def test_a_quick_run_measures_every_kind_of_key(
    request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["--redis", session_redis(request).url, "--matches", "5"])
    figures = json.loads(capsys.readouterr().out)
    kinds = set(figures["redis"])
    assert {"{g}r", "{g}h", "{g}rated", "{g}pair", "{n}", "{s}m", "{s}e"} <= kinds, kinds
    assert 2_000 < figures["redis_bytes_per_rated_match"] < 20_000, figures
    assert 10_000 < figures["redis_bytes_per_key_and_game_with_a_full_history"] < 60_000
    assert figures["memory_bytes_per_rated_match"] > 0

"""The Connect Four strength script: plays real games and reports them (no timings asserted)."""

from __future__ import annotations

import pytest

from bench.connect4_strength import main, openings
from examples.connect4.rules import WIDTH


def test_openings_are_all_49_two_ply_starts_in_a_seeded_order() -> None:
    found = openings(7)
    assert sorted(found) == sorted(f"{a}{b}" for a in range(WIDTH) for b in range(WIDTH))
    assert found == openings(7) and found != openings(8)


@pytest.mark.timeout(120)
def test_a_short_run_plays_each_opening_with_both_colours_and_prints_the_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--games", "2", "--budget", "0.05", "--depth", "2", "--verbose"])
    out, err = capsys.readouterr()
    games = [line for line in out.splitlines() if line.startswith("game ")]
    assert [line.split(",")[0] for line in games] == [
        "game 1: strong first",
        "game 2: strong second",
    ]
    # The same opening both times: the first two plies of each game's move string.
    assert games[0].rsplit(": ", 1)[1][:2] == games[1].rsplit(": ", 1)[1][:2]
    assert "| first | 1 |" in out and "| second | 1 |" in out and "| **both** | 2 |" in out
    assert "| strong |" in out and "| classic depth 2 |" in out
    assert "2/2 games" in err

"""The browser engine's strength script: plays real games through node (no timings asserted)."""

from __future__ import annotations

import pytest

from bench.connect4_js_strength import JsEngine, main
from examples.connect4.rules import Board
from tests.support.components import require_binary


def test_the_node_engine_answers_a_legal_move_and_takes_a_win_in_one() -> None:
    require_binary("node", "nodejs")
    with JsEngine() as engine:
        move, seconds = engine.move("343434", 0.1)
        assert move == 3 and seconds >= 0
        opening, _ = engine.move("", 0.05)
        assert opening in Board.empty().legal_moves()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("opponent", ["classic", "python"])
def test_a_short_run_plays_each_opening_with_both_colours_and_prints_the_table(
    capsys: pytest.CaptureFixture[str], opponent: str
) -> None:
    require_binary("node", "nodejs")
    main(["--opponent", opponent, "--games", "2", "--budget", "0.05", "--depth", "2", "--verbose"])
    out, err = capsys.readouterr()
    games = [line for line in out.splitlines() if line.startswith("game ")]
    assert [line.split(",")[0] for line in games] == ["game 1: js first", "game 2: js second"]
    # The same opening both times: the first two plies of each game's move string.
    assert games[0].rsplit(": ", 1)[1][:2] == games[1].rsplit(": ", 1)[1][:2]
    assert "| first | 1 |" in out and "| second | 1 |" in out and "| **both** | 2 |" in out
    assert "JavaScript" in out
    assert "2/2 games" in err

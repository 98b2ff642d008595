"""`python -m bench.farming` played for a few seconds: a main key and its socks from many
addresses get at most three rated results a pair and no leaderboard place (docs/fair-play.md);
before the fair-play rules, every match was rated and the main key ranked first."""

from __future__ import annotations

from bench.farming import farm
from tests.support.relay_process import RelayProcess, quick_flags


async def test_farming_from_many_addresses_reaches_no_leaderboard() -> None:
    with RelayProcess(*quick_flags(), "--referee", "xand0") as relay:
        for draws in (False, True):
            found = await farm(relay.url, "many", 3, 2.0, True, draws, "127.0.0.2")
            assert found.matches > 3 * 3, found  # the attack ran: many matches played
            assert found.rated == 3 * 3, found  # three a pair of keys, then casual
            assert found.games == found.rated and found.rank is None, found

"""Strangers' game-ending moves and disputes on a refereed relay cost what any refusal costs:
the token is checked before a log is read or a referee run, and a stranger's own match is
bounded in bytes. Two honest rounds and two flooded rounds alternate in one run; the flooded
rounds' move latency stays within twice the quiet rounds' (`python -m bench.stranger` gives the
figures, docs/reliability.md the reading)."""

from __future__ import annotations

import asyncio

import aiohttp
import orjson

from bench.flood import Phase, play_phase
from bench.stranger import KINDS, Attack, Strangers, prepare, refusal_rates, strangers_in_process
from tests.reliability.conftest import assert_log_clean
from tests.support.relay_process import RelayProcess

SOURCES = [f"127.0.0.{n}" for n in range(2, 6)]
"""The strangers' loopback addresses (the honest players play from 127.0.0.1)."""

RATE = 150.0
"""Requests a second each stranger address sends: past what one address of a public site
gets (--requests-per-second 100 by default), and above the 30 to 50 a second that four
clients got answered when each refusal read and judged the log."""

ATTEMPTS = 3
"""Times the quiet and flooded rounds are played before the test fails: in the whole suite
four workers share this machine's two cores, so a round's p99 also measures its neighbours'
load; a relay that does work for strangers fails every attempt (python -m bench.stranger
measures it alone)."""

NOISE_MS = 3.0
"""Latency below which a p99 is this machine's scheduling noise, not the relay's work: a
quiet p99 under it counts as this much."""


async def flooded_round(port: int, attack: Attack, name: str) -> tuple[Phase, Strangers]:
    """Plays a round of honest matches while the strangers send; returns both tallies."""
    loop = asyncio.get_running_loop()
    go, results, proc = strangers_in_process("127.0.0.1", port, attack, SOURCES, 3.5, RATE)
    go.set()
    await asyncio.sleep(1.0)
    phase = await play_phase("127.0.0.1", port, name, 4, 60, 0.01)
    tally: Strangers = await loop.run_in_executor(None, results.get, True, 60)
    await loop.run_in_executor(None, proc.join, 10)
    return phase, tally


async def test_strangers_endings_and_disputes_leave_honest_latency_alone() -> None:
    with RelayProcess(
        "--referee", "connect4", "--requests-per-second", "1000", "--seeks-per-minute", "600",
        "--no-access-log", module="bench.refereed",
    ) as relay:  # fmt: skip
        attack = await prepare("127.0.0.1", relay.port, SOURCES[0])
        # 4,096-character moves fill the default 256 KiB of move text in 64 moves.
        assert attack.last == 1 + 262_144 // 4098, attack
        rates = await refusal_rates("127.0.0.1", relay.port, attack, SOURCES[1], 200)
        # Before the token came first, a refused ending or dispute was 100 times dearer.
        assert min(rates.values()) > rates["plain_move"] / 3, rates
        tried = []
        for attempt in range(ATTEMPTS):
            quiet, flooded = [], []
            for round_ in range(2):
                name = f"{attempt}-{round_}"
                quiet.append(await play_phase("127.0.0.1", relay.port, f"q{name}", 4, 60, 0.01))
                flooded.append(await flooded_round(relay.port, attack, f"f{name}"))
            for phase in [*quiet, *(phase for phase, _ in flooded)]:
                assert phase.failures == [] and phase.moves == 4 * 60, phase.failures
            for _, tally in flooded:
                assert tally.unexpected() == {}, tally.answers
                for kind in KINDS:  # every kind was sent, and refused as it must be
                    assert sum(n for k, n in tally.answers.items() if k.startswith(kind)) > 100
            quiet_p99 = max(NOISE_MS, *(phase.percentile(0.99) for phase in quiet))
            flooded_p99 = min(phase.percentile(0.99) for phase, _ in flooded)
            tried.append(([p.row() for p in quiet], [p.row() for p, _ in flooded]))
            if flooded_p99 <= 2 * quiet_p99:
                break
        else:
            raise AssertionError(f"flooded p99 above twice the quiet one in every attempt: {tried}")
        # The stranger's match is as it was: in play, its log unchanged.
        info = await prepare_info(relay.port, attack)
        assert (info["status"], info["last"]) == ("playing", attack.last)
    assert_log_clean(relay)


async def prepare_info(port: int, attack: Attack) -> dict[str, object]:
    """Returns GET /v1/matches/{id} of the stranger's match."""
    url = f"http://127.0.0.1:{port}/v1/matches/{attack.match}"
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        assert answer.status == 200, await answer.text()
        found: dict[str, object] = orjson.loads(await answer.read())
        return found

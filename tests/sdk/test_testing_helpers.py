"""sdk.testing and sdk.play: the helpers game writers use in their tests and scripts."""

from __future__ import annotations

import asyncio
import re
import secrets
import threading
import time
from collections.abc import Sequence

import pytest

import sdk
from sdk import Outcome, Played, Reason, Result, State
from sdk._endings import PARTNER_RESIGNED
from sdk.testing import local_relay, play_pair, relay_in_thread, run_pair
from tests.sdk.counting import Counter, CountReferee, Skipper, refereed

Bot = Counter
"""Counts to 5 and says the game is over; the receiver agrees (tests/sdk/counting.py)."""


class Quitter(Bot):
    """Resigns when it gets the turn."""

    def enable(self) -> None:
        assert isinstance(self.host, sdk.RelayHost)
        self.host.resign()


class Broken(Bot):
    """Has a bug on its first turn."""

    def enable(self) -> None:
        raise ZeroDivisionError("a bug in the game")


class Thinker(Bot):
    """Never moves."""

    def enable(self) -> None:
        pass


async def test_play_pair_returns_outcomes_states_and_dialogs() -> None:
    pair = await play_pair(Bot, Quitter, timeout=20)
    by_game = {type(game): i for i, game in enumerate(pair.games)}
    bot, quitter = by_game[Bot], by_game[Quitter]
    assert pair.outcomes[quitter].reason is Reason.RESIGNED
    assert pair.outcomes[bot].result is Result.WON
    assert pair.dialogs[bot] == [PARTNER_RESIGNED]
    assert pair.dialogs[quitter] == []
    assert pair.states[quitter][0] is State.LISTENING
    assert pair.states[quitter][-1] is State.GAME_ENDED


async def test_play_pair_raises_a_game_bug_at_once() -> None:
    began = time.monotonic()
    with pytest.raises(ZeroDivisionError, match="a bug in the game"):
        await play_pair(Broken, Broken, timeout=20)
    assert time.monotonic() - began < 5


async def test_play_pair_gives_up_after_its_timeout() -> None:
    async with local_relay() as url:
        with pytest.raises(TimeoutError):
            await play_pair(Thinker, Thinker, relay_url=url, timeout=1.0)


def test_sdk_play_blocks_until_the_match_is_over_and_resumes_by_ticket(relay_url: str) -> None:
    room = "blocking-" + secrets.token_hex(6)
    outcomes: list[Outcome] = []
    tickets: list[sdk.Ticket] = []

    def player() -> None:
        outcomes.append(
            sdk.play(relay_url, "blocking", Bot, room=room, on_ticket=tickets.append, dialog=print)
        )

    threads = [threading.Thread(target=player) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [o.reason for o in outcomes] == [Reason.AGREED, Reason.AGREED]
    assert [o.result for o in outcomes] == [Result.DRAWN, Result.DRAWN]
    assert {o.match for o in outcomes} == {tickets[0].match}

    resumed = sdk.play(relay_url, "blocking", Restorable, ticket=tickets[0])
    assert (resumed.reason, resumed.match, resumed.seat) == (
        Reason.AGREED,
        tickets[0].match,
        tickets[0].seat,
    )


class Restorable(Bot):
    """A Bot that can be resumed."""

    def restore(self, history: Sequence[Played]) -> None:
        self.count = max((int(p.move) for p in history if p.move is not None), default=0)


def test_sdk_play_is_refused_inside_a_running_loop() -> None:
    async def inside() -> None:
        with pytest.raises(RuntimeError, match=r"await RelayHost\(\.\.\.\)\.play\(\)"):
            sdk.play("http://127.0.0.1:9", "x", Bot)

    asyncio.run(inside())


async def test_play_pair_runs_the_referees_it_is_given_by_game_name() -> None:
    referees = {"count": CountReferee}
    refereed(await play_pair(Skipper, Counter, game_key="count", referees=referees))
    # Another game's name: the same cheat is only disputed, with the honest side's words.
    other = await play_pair(Skipper, Counter, game_key="other", referees=referees)
    assert other.reasons == (Reason.DISPUTED, Reason.DISPUTED)
    assert not any(outcome.refereed for outcome in other.outcomes)
    assert re.fullmatch(r"'\d' is not \d", other.outcomes[0].detail)


def test_run_pair_through_a_relay_in_a_thread_that_runs_a_referee() -> None:
    with relay_in_thread(referees={"count": CountReferee}) as url:
        refereed(run_pair(Skipper, Counter, relay_url=url, game_key="count"))
        with pytest.raises(ValueError, match="referees are for the relay this helper starts"):
            run_pair(Counter, Counter, relay_url=url, referees={"count": CountReferee})


async def test_a_test_relay_refuses_a_referee_without_judge() -> None:
    with pytest.raises(ValueError, match="has no judge"):
        async with local_relay(referees={"count": object}):
            pass

"""Moves posted held for the reply (`?wait=`): one request per move, one request per seat."""

from __future__ import annotations

import asyncio

import pytest

from sdk import Game, GameHost, Reason, State
from sdk.testing import FAST
from sdk.testing import play_pair as sdk_pair
from tests.sdk.fault_proxy import FaultProxy
from tests.sdk.scripted import Side, moves_in, play_pair, relay_log

pytestmark = pytest.mark.timeout(60)

ROUNDS = 12
"""Moves of each side in the long scripted match."""


def long_match() -> tuple[Side, Side, list[str]]:
    """Returns the sides of a match of 2 * ROUNDS + 1 moves and its moves in order."""
    first = [f"a{n}" for n in range(ROUNDS)] + ["a-end!"]
    second = [f"b{n}" for n in range(ROUNDS)]
    order = [move for pair in zip(first, second, strict=False) for move in pair] + ["a-end!"]
    return Side(first), Side(second, answers={"a-end!": State.GAME_ENDED}), order


def port_of(relay: str) -> int:
    return int(relay.rsplit(":", 1)[1])


async def test_each_move_is_one_request_and_polls_do_not_grow_with_the_match(relay: str) -> None:
    first, second, order = long_match()
    async with FaultProxy(port_of(relay)) as proxy:
        played = await play_pair(proxy.url, first, second)
    assert [played.outcome(side).reason for side in (True, False)] == [Reason.AGREED] * 2
    lines = proxy.lines
    held_moves = [line for line in lines if b"/moves?wait=" in line]
    plain_moves = [line for line in lines if b"/moves " in line]
    polls = [line for line in lines if b"/events?" in line]
    assert len(held_moves) == len(order) and plain_moves == []
    # Polls only while seeking, for the first move, and for the end: none per move.
    assert len(polls) <= 6, polls
    others = len(lines) - len(held_moves) - len(polls)
    assert others == 3, lines  # two seeks and the confirm
    assert moves_in(await relay_log(relay, played.match)) == [*order, "ended:agreed"]


async def test_a_seat_never_holds_two_requests_at_once(relay: str) -> None:
    first, second, _ = long_match()
    async with FaultProxy(port_of(relay)) as proxy:
        played = await play_pair(proxy.url, first, second)
    assert [played.outcome(side).reason for side in (True, False)] == [Reason.AGREED] * 2
    assert len(proxy.most_in_flight) == 2  # both seats, by their tokens
    assert set(proxy.most_in_flight.values()) == {1}
    assert set(proxy.in_flight.values()) == {0}


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_dropped_answers_to_held_moves_lose_and_repeat_no_event(
    relay: str, seed: int
) -> None:
    first, second, order = long_match()
    async with FaultProxy(port_of(relay), seed=seed, drop=0.4, only=b"/moves?") as proxy:
        played = await play_pair(proxy.url, first, second)
    assert proxy.faults.drops >= 3
    assert [played.outcome(side).reason for side in (True, False)] == [Reason.AGREED] * 2
    assert moves_in(await relay_log(relay, played.match)) == [*order, "ended:agreed"]
    received = {
        role: [c[1] for c in host.calls if c[0] == "receive_move"]
        for role, host in ((True, played.first), (False, played.second))
    }
    assert received[True] == order[1::2]
    assert received[False] == order[0::2]


class Slow(Game):
    """Moves `moves` times, each a while after its turn came, so that held posts run out."""

    def __init__(self, host: GameHost, first_move: bool, received: list[str]) -> None:
        super().__init__(host, first_move)
        self.received = received
        self.left = 3

    def enable(self) -> None:
        self.left -= 1
        text, end = f"{'ab'[not self.first_move]}{self.left}", self.left == 0 and self.first_move
        asyncio.get_running_loop().call_later(1.3, self.host.move, text, end)

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        self.received.append(move)
        return State.GAME_ENDED if move.endswith("0") and move[0] == "a" else State.PLAYING_TO_MOVE


async def test_held_moves_that_run_out_hand_on_every_reply_once(quick_relay: str) -> None:
    got: dict[bool, list[str]] = {True: [], False: []}

    def make(host: GameHost, first_move: bool) -> Game:
        return Slow(host, first_move, got[first_move])

    async with FaultProxy(port_of(quick_relay)) as proxy:
        async with asyncio.timeout(40):
            result = await sdk_pair(make, make, relay_url=proxy.url, timing=FAST)
    assert {o.reason for o in result.outcomes} == {Reason.AGREED}, result
    assert got[False] == ["a2", "a1", "a0"]
    assert got[True] == ["b2", "b1"]
    # Each post ran out (0.5 s hold) before the partner's reply (1.3 s): polls carried it.
    assert len([line for line in proxy.lines if b"/moves?wait=" in line]) == 5

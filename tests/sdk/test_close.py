"""RelayHost.close(): one side stops without a word to the relay, its seat stays resumable,
and sdk.testing.crash_and_resume plays the crash and the comeback (the docs' example)."""

from __future__ import annotations

import asyncio
import re
import secrets
from pathlib import Path
from typing import Any

from sdk import Game, GameHost, Played, Reason, RelayClient, RelayHost, State
from sdk.testing import FAST

SDK_DOC = (Path(__file__).resolve().parents[2] / "docs" / "sdk.md").read_text()


class Slow(Game):
    """Counts to 20, a number every 50 ms; restores from the log."""

    def __init__(self, host: GameHost, first_move: bool) -> None:
        super().__init__(host, first_move)
        self.count = 0
        self.restored: list[int] = []

    def enable(self) -> None:
        asyncio.get_running_loop().call_later(0.05, self._move)

    def _move(self) -> None:
        if self.host.state is State.PLAYING_TO_MOVE:
            self.count += 1
            self.host.move(str(self.count), end_game=self.count >= 20)

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        self.count = int(move)
        return State.GAME_ENDED if self.count >= 20 else State.PLAYING_TO_MOVE

    def restore(self, history: Any) -> None:
        played: list[Played] = list(history)
        self.restored = [int(p.move or 0) for p in played]
        self.count = self.restored[-1]


def pair(relay: str) -> tuple[RelayHost, RelayHost]:
    room = "close-" + secrets.token_hex(4)
    return (
        RelayHost(relay, "slow", Slow, room=room, timing=FAST, dialog=lambda text: None),
        RelayHost(relay, "slow", Slow, room=room, timing=FAST, dialog=lambda text: None),
    )


async def test_a_closed_host_stops_at_once_and_its_seat_is_taken_up_again(relay: str) -> None:
    a, b = pair(relay)
    playing, other = asyncio.ensure_future(a.play()), asyncio.ensure_future(b.play())
    await asyncio.sleep(0.4)
    a.close()
    closed = await asyncio.wait_for(playing, 5)
    assert (closed.reason, closed.is_finished, a.state) == (
        Reason.CLOSED,
        False,
        State.NOT_CONNECTED,
    )
    ticket = a.ticket
    assert ticket is not None
    async with a.open_client() as client:
        assert isinstance(client, RelayClient)
        assert (await client.table(ticket)).version >= 1  # the match goes on at the relay
    again = a.resumed()
    outcomes = await asyncio.wait_for(asyncio.gather(again.play(), other), 20)
    assert [o.reason for o in outcomes] == [Reason.AGREED, Reason.AGREED]
    game = again.game
    assert isinstance(game, Slow) and game.restored and game.count == 20


async def test_closing_a_host_that_waits_for_a_partner_ends_its_play(relay: str) -> None:
    alone = RelayHost(relay, "slow", Slow, room="lonely-" + secrets.token_hex(4), timing=FAST)
    playing = asyncio.ensure_future(alone.play())
    for _ in range(100):
        if alone.ticket is not None:
            break
        await asyncio.sleep(0.02)
    alone.close()
    outcome = await asyncio.wait_for(playing, 5)
    assert outcome.reason is Reason.CLOSED and outcome.match == alone.ticket.match  # type: ignore[union-attr]


async def test_the_crash_example_of_the_sdk_doc_runs(relay: str) -> None:
    found = re.search(r"<!-- example: crash -->\n```python\n(.*?)```", SDK_DOC, re.S)
    assert found is not None, "docs/sdk.md has no crash example"
    example: dict[str, Any] = {}
    exec(compile(found.group(1), "crash-example", "exec"), example)
    a, b = pair(relay)
    outcomes = await asyncio.wait_for(example["crash_once_and_finish"](a, b), 30)
    assert [o.reason for o in outcomes] == [Reason.AGREED, Reason.AGREED]

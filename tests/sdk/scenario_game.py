"""The scenario corpus's game for the Python host: it plays a scenario's `game` script and
records every call its host makes, as tests/js/scenario_game.mjs does for the JavaScript host."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sdk import Game, GameHost, MoveRejected, Offer, RelayHost, Result, State

__all__ = ["PASS", "RESIGN", "TAKEBACK", "WAIT", "Recorder", "ScenarioGame"]

PASS = "<pass>"
"""A scripted 'move' that passes the turn by choice."""
RESIGN = "<resign>"
"""A scripted 'move' that resigns instead."""
WAIT = "<wait>"
"""A scripted 'move' that leaves the turn to the player: nothing is played on this enable()."""
TAKEBACK = "<takeback>"
"""A scripted 'move' that asks a takeback, then plays the next move once the relay has it."""

Call = list[str]
"""One call as the corpus writes it: [name, argument ("" for none), the host's state name]."""


class Recorder:
    """What a host did in a scenario: its game's calls and dialogs, and its states, in order."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.states: list[str] = []
        self.host: RelayHost | None = None

    def record(self, name: str, argument: str = "") -> None:
        """Records a call, with the state the host is in during it."""
        state = State.NOT_CONNECTED if self.host is None else self.host.state
        self.calls.append([name, argument, state.name])

    def state(self, state: State) -> None:
        """Records a new state."""
        self.states.append(state.name)

    def dialog(self, text: str) -> None:
        """Records a dialog as a call of its own."""
        self.record("show_dialog", text)


class ScenarioGame(Game):
    """Plays the moves of a scenario's `game` script, one per enable(), and records its calls."""

    def __init__(self, host: GameHost, first_move: bool, script: dict[str, Any], rec: Recorder):
        super().__init__(host, first_move)
        self.script = script
        self.moves: list[str] = list(script.get("moves", []))
        self.rec = rec
        self.asking: asyncio.Future[None] | None = None
        rec.record("created", str(first_move).lower())

    def enable(self) -> None:
        self.rec.record("enable")
        if not self.moves:
            return
        move = self.moves.pop(0)
        host = self.host
        assert isinstance(host, RelayHost)
        if move == RESIGN:
            host.resign()
        elif move == TAKEBACK:
            self.asking = asyncio.ensure_future(self._ask_takeback(host))
        elif move == PASS:
            self.host.pass_turn()
        elif move != WAIT:
            self.host.move(move, end_game=move.endswith("!"))

    async def _ask_takeback(self, host: RelayHost) -> None:
        """Asks a takeback; then plays the next move, as a player who did not wait for it."""
        await host.ask_takeback()
        move = self.moves.pop(0)
        host.move(move, end_game=move.endswith("!"))

    def disable(self) -> None:
        self.rec.record("disable")

    def receive_move(self, move: str) -> State:
        self.rec.record("receive_move", move)
        reason = self.script.get("reject", {}).get(move)
        if reason is not None:
            raise MoveRejected(reason)
        return State[self.script.get("answers", {}).get(move, "PLAYING_TO_MOVE")]

    def receive_pass(self) -> State:
        self.rec.record("receive_pass")
        return State.PLAYING_TO_MOVE

    def result(self) -> Result | None:
        self.rec.record("result")
        found = self.script.get("result")
        return None if found is None else Result(found)

    def undo(self, count: int) -> None:
        self.rec.record("undo", str(count))

    def consider_offer(self, offer: Offer) -> bool | None:
        self.rec.record("consider_offer", offer.kind)
        answer = self.script.get("offers")
        assert answer is None or isinstance(answer, bool)
        return answer


def factory(script: dict[str, Any], rec: Recorder) -> Callable[[GameHost, bool], Game]:
    """Returns the factory of a scenario's game, recording into `rec`."""

    def make(host: GameHost, first_move: bool) -> Game:
        return ScenarioGame(host, first_move, script, rec)

    return make

"""A game's private data kept with its seat (host.keep, host.kept, Ticket.kept), and the end
claim it reads (host.end_claimed): the docs' sealed example, played, crashed and resumed."""

from __future__ import annotations

import asyncio
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest

from sdk import Game, GameHost, HostStateError, Reason, RelayHost, Result, State, Ticket
from sdk._endings import rejected
from sdk.testing import FAST, crash_and_resume, local_relay, run_pair

SDK_DOC = (Path(__file__).resolve().parents[2] / "docs" / "sdk.md").read_text()


def sealed() -> Any:
    """Returns the docs' Sealed game class, run from its code block."""
    found = re.search(r"<!-- example: sealed -->\n```python\n(.*?)```", SDK_DOC, re.S)
    assert found is not None, "docs/sdk.md has no sealed example"
    example: dict[str, Any] = {"__name__": "sealed"}
    exec(compile(found.group(1), "sealed-example", "exec"), example)
    return example["Sealed"]


def test_the_sealed_example_plays_to_an_agreed_end() -> None:
    pair = run_pair(sealed(), sealed())
    assert pair.reasons == (Reason.AGREED, Reason.AGREED)
    assert pair.results == (Result.DRAWN, Result.DRAWN)
    assert pair.dialogs == ([], [])
    salts = [host.kept for host in pair.hosts]
    assert all(salts) and salts[0] != salts[1]
    assert [game.salt for game in pair.games] == salts  # type: ignore[union-attr]


async def test_a_crashed_side_resumes_with_its_salt_from_the_saved_ticket(tmp_path: Path) -> None:
    game = sealed()
    seat = tmp_path / "seat.json"
    saved: list[Ticket] = []

    def save(ticket: Ticket) -> None:
        ticket.save(seat)
        saved.append(ticket)

    reached = asyncio.Event()

    class Slow(game):  # type: ignore[misc,valid-type]
        """The example, taking its time over each move (to be crashed mid-match)."""

        def enable(self) -> None:
            if self.count >= 4:
                reached.set()
            asyncio.get_running_loop().call_later(0.05, super().enable)

    async with local_relay() as url:
        first = RelayHost(url, "sealed", Slow, room="kept", timing=FAST, on_ticket=save)
        partner = RelayHost(url, "sealed", game, room="kept", timing=FAST)
        async with asyncio.timeout(30):
            playing = asyncio.ensure_future(first.play())
            other = asyncio.ensure_future(partner.play())
            await reached.wait()
            salt, seals = first.kept, list(first.game.seals)  # type: ignore[union-attr]
            assert salt is not None and saved[-1].kept == salt
            assert stat.S_IMODE(os.stat(seat).st_mode) == 0o600
            assert Ticket.load(seat) == saved[-1] and Ticket.load(seat).kept == salt
            again = await crash_and_resume(first, playing)
            assert again.kept == salt
            outcomes = await asyncio.gather(again.play(), other)
    assert [o.reason for o in outcomes] == [Reason.AGREED, Reason.AGREED]
    resumed = again.game
    assert resumed is not None and resumed.salt == salt  # type: ignore[attr-defined]
    assert resumed.seals[: len(seals)] == seals  # type: ignore[attr-defined]


async def test_a_ticket_read_from_a_file_resumes_with_what_it_kept(tmp_path: Path) -> None:
    path = tmp_path / "seat.json"
    Ticket("m", 1, "t", kept="salt").save(path)
    assert Ticket.load(path).kept == "salt"
    assert '"kept":"salt"' in path.read_text()
    path.write_text('{"match": "m", "seat": 1, "token": "t"}')  # saved before kept data
    assert Ticket.load(path) == Ticket("m", 1, "t") and Ticket.load(path).kept is None
    assert Ticket("m", 1, "t").to_json() == '{"match":"m","seat":1,"token":"t"}'
    with pytest.raises(ValueError, match="'kept' is not text"):
        Ticket.from_json('{"match": "m", "seat": 1, "token": "t", "kept": 3}')
    with pytest.raises(ValueError, match="at most 65536"):
        Ticket("m", 1, "t", kept="x" * 65537)
    assert "salt" not in repr(Ticket("m", 1, "t", kept="salt"))
    host = RelayHost.resume("http://relay", Ticket("m", 1, "t", kept="salt"), sealed())
    assert host.kept == "salt"


def test_keep_needs_a_seat() -> None:
    host = RelayHost("http://relay", "sealed", sealed())
    with pytest.raises(HostStateError, match="keep"):
        host.keep("salt")
    assert host.kept is None and not host.end_claimed


class Cheat(Game):
    """Opens with a number that does not follow, or claims the end at 1."""

    def __init__(self, host: GameHost, first_move: bool, move: str, end: bool) -> None:
        super().__init__(host, first_move)
        self.opening = (move, end)

    def enable(self) -> None:
        self.host.move(*self.opening)

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        return State.PLAYING_TO_MOVE


@pytest.mark.parametrize(
    ("move", "end", "reason"),
    [
        ("5 x", False, "'5' does not follow 0"),
        ("1 x", True, "the count ends at 10, and only there"),
    ],
    ids=["wrong-number", "false-end-claim"],
)
def test_the_example_rejects_a_cheater_with_its_reason(move: str, end: bool, reason: str) -> None:
    game = sealed()

    def cheat(host: GameHost, first_move: bool) -> Game:
        if first_move:
            return Cheat(host, first_move, move, end)
        made: Game = game(host, first_move)
        return made

    pair = run_pair(cheat, cheat)
    honest = next(i for i, g in enumerate(pair.games) if g is not None and not g.first_move)
    assert pair.reasons == (Reason.DISPUTED, Reason.DISPUTED)
    assert pair.dialogs[honest] == [rejected(1, False, reason)]
    assert pair.outcomes[honest].by_me

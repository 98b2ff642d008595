"""Resuming after a client restart: the game is rebuilt from the log and nothing is sent twice."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass

import pytest

from sdk import Game, GameHost, Outcome, Reason, RelayHost, Result, State
from sdk._endings import PARTNER_RESIGNED
from sdk.testing import FAST
from tests.sdk.scripted import (
    CRASH,
    Crash,
    RecordingHost,
    Side,
    factory,
    moves_in,
    play_pair,
    relay_log,
    ticket_of,
)

LISTENING = State.LISTENING
TO_MOVE = State.PLAYING_TO_MOVE
WAIT_MOVE = State.PLAYING_WAIT_MOVE
WAITING = State.WAITING_SERVER_RESPONSE
ENDED = State.GAME_ENDED


@dataclass
class Restarted:
    """A match in which one client crashed and was restarted on the same seat."""

    resumed: RecordingHost
    partner: RecordingHost
    outcome: Outcome
    partner_outcome: Outcome
    match: str


async def crash_and_resume(
    relay: str, first: Side, second: Side, again: Side, *, before_resume: bool = False
) -> Restarted:
    """Plays until one side crashes, restarts that side with script `again`, plays on."""
    room = "resume-" + secrets.token_hex(6)
    make = factory(first, second)
    hosts = [RecordingHost(relay, "resume", make, room=room, timing=FAST) for _ in "ab"]
    tasks = {asyncio.create_task(host.play()): host for host in hosts}
    async with asyncio.timeout(30):
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        crashed_task = done.pop()
        crashed = tasks.pop(crashed_task)
        assert isinstance(crashed_task.exception(), Crash)
        partner_task, partner = tasks.popitem()
        if before_resume:
            partner.resign()
            await partner_task
        make_again = factory(again, again)
        resumed = RecordingHost.resume(relay, ticket_of(crashed), make_again, timing=FAST)
        outcome = await resumed.play()
        partner_outcome = await partner_task
    return Restarted(resumed, partner, outcome, partner_outcome, ticket_of(crashed).match)


async def test_crash_on_my_turn_resumes_with_the_unanswered_move(relay: str) -> None:
    first = Side(["a1", CRASH])
    second = Side(["b1", "b2"], answers={"a3!": ENDED}, result=Result.LOST)
    again = Side(["a1", "a2", "a3!"], result=Result.WON)
    run = await crash_and_resume(relay, first, second, again)

    assert run.resumed.calls == [
        ("created", "True", LISTENING),
        ("restore", "me:a1", LISTENING),
        ("disable", "", WAIT_MOVE),
        ("receive_move", "b1", WAIT_MOVE),  # b1 was never answered: the new game gets it
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("receive_move", "b2", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("result", "", WAITING),  # its claim
        ("result", "", ENDED),
    ]
    assert run.resumed.states == [
        LISTENING, WAIT_MOVE, TO_MOVE, WAITING, WAIT_MOVE, TO_MOVE, WAITING, ENDED
    ]  # fmt: skip
    assert [c[:2] for c in run.partner.calls] == [
        ("created", "False"),
        ("disable", ""),
        ("receive_move", "a1"),
        ("enable", ""),
        ("disable", ""),
        ("receive_move", "a2"),
        ("enable", ""),
        ("disable", ""),
        ("receive_move", "a3!"),
        ("result", ""),  # checks the mover's claim (docs/ratings.md)
        ("result", ""),
    ]
    assert (run.outcome.result, run.outcome.reason) == (Result.WON, Reason.AGREED)
    assert run.partner_outcome.result is Result.LOST
    assert moves_in(await relay_log(relay, run.match)) == [
        "a1", "b1", "a2", "b2", "a3!", "ended:agreed"
    ]  # fmt: skip


async def test_pass_already_in_the_log_is_not_sent_again(relay: str) -> None:
    first = Side(["a1", "a2", "a3!"])
    second = Side(["b1"], answers={"a1": WAIT_MOVE}, crash_on="a2")
    again = Side(["b1"], answers={"a3!": ENDED})
    run = await crash_and_resume(relay, first, second, again)

    assert run.resumed.calls == [
        ("created", "False", LISTENING),
        ("restore", "them:a1 me:pass", LISTENING),
        ("disable", "", WAIT_MOVE),
        ("receive_move", "a2", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("receive_move", "a3!", WAIT_MOVE),
        ("result", "", ENDED),
    ]
    assert run.outcome.reason is Reason.AGREED
    assert moves_in(await relay_log(relay, run.match)) == [
        "a1", "pass", "a2", "b1", "a3!", "ended:agreed"
    ]  # fmt: skip


async def test_game_ending_move_left_unconfirmed_is_confirmed_once_after_restart(
    relay: str,
) -> None:
    first = Side(["a1!"], result=Result.WON)
    second = Side([], crash_on="a1!")
    again = Side([], answers={"a1!": ENDED}, result=Result.LOST)
    run = await crash_and_resume(relay, first, second, again)

    assert run.resumed.calls == [
        ("created", "False", LISTENING),
        ("disable", "", WAIT_MOVE),  # nothing to restore: the only move is still unanswered
        ("receive_move", "a1!", WAIT_MOVE),
        ("result", "", WAIT_MOVE),  # checks the mover's claim (docs/ratings.md)
        ("result", "", ENDED),
    ]
    assert (run.outcome.result, run.outcome.reason) == (Result.LOST, Reason.AGREED)
    assert (run.partner_outcome.result, run.partner_outcome.reason) == (Result.WON, Reason.AGREED)
    assert moves_in(await relay_log(relay, run.match)) == ["a1!", "ended:agreed"]


async def test_resume_after_the_partner_resigned_reports_it(relay: str) -> None:
    first = Side(["a1", CRASH])
    second = Side(["b1"])
    again = Side(["a1"])
    run = await crash_and_resume(relay, first, second, again, before_resume=True)

    assert run.resumed.calls == [
        ("created", "True", LISTENING),
        ("restore", "me:a1 them:b1", LISTENING),
        ("disable", "", WAIT_MOVE),  # the match is over: the game is never enabled
        ("show_dialog", PARTNER_RESIGNED, ENDED),
    ]
    assert (run.outcome.result, run.outcome.reason) == (Result.WON, Reason.RESIGNED)
    assert run.partner_outcome.reason is Reason.RESIGNED


async def test_resume_of_a_finished_match_gives_its_outcome_and_sends_nothing(relay: str) -> None:
    played = await play_pair(
        relay, Side(["a1", "a2!"], result=Result.WON), Side(["b1"], answers={"a2!": ENDED})
    )
    log = await relay_log(relay, played.match)
    make = factory(Side(result=Result.WON), Side())
    resumed = RecordingHost.resume(relay, ticket_of(played.first), make, timing=FAST)
    async with asyncio.timeout(10):
        outcome = await resumed.play()

    assert resumed.calls == [
        ("created", "True", LISTENING),
        ("restore", "me:a1 them:b1 me:a2!", LISTENING),
        ("disable", "", ENDED),
        ("result", "", ENDED),
    ]
    assert (outcome.result, outcome.reason) == (Result.WON, Reason.AGREED)
    assert await relay_log(relay, played.match) == log


async def test_seek_resumed_before_a_partner_came_plays_normally(relay: str) -> None:
    room = "resume-seek-" + secrets.token_hex(6)
    make = factory(Side(["a1!"]), Side(answers={"a1!": ENDED}))
    seated = asyncio.Event()
    seeker = RecordingHost(
        relay, "resume", make, room=room, timing=FAST, on_ticket=lambda _: seated.set()
    )
    async with asyncio.timeout(20):
        task = asyncio.create_task(seeker.play())
        await seated.wait()
        task.cancel()  # the client dies while waiting for a partner
        await asyncio.wait([task])
        resumed = RecordingHost.resume(relay, ticket_of(seeker), make, timing=FAST)
        joiner = RecordingHost(relay, "resume", make, room=room, timing=FAST)
        outcomes = await asyncio.gather(resumed.play(), joiner.play())
    assert [o.reason for o in outcomes] == [Reason.AGREED, Reason.AGREED]
    assert outcomes[0].match == ticket_of(seeker).match
    assert resumed.states[0] is LISTENING


async def test_resuming_a_game_without_restore_raises_a_clear_error(relay: str) -> None:
    class Plain(Game):
        def enable(self) -> None:
            self.host.move("m")

        def disable(self) -> None:
            pass

        def receive_move(self, move: str) -> State:
            return State.PLAYING_TO_MOVE

    def plain(host: GameHost, first_move: bool) -> Game:
        return Plain(host, first_move)

    make = factory(Side(["a1", CRASH]), Side(["b1"]))
    room = "plain-" + secrets.token_hex(6)
    hosts = [RecordingHost(relay, "plain", make, room=room, timing=FAST) for _ in "ab"]
    tasks = [asyncio.create_task(host.play()) for host in hosts]
    try:
        async with asyncio.timeout(10):
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            crashed = hosts[tasks.index(done.pop())]
            with pytest.raises(NotImplementedError, match="Plain cannot be resumed"):
                await RelayHost.resume(relay, ticket_of(crashed), plain, timing=FAST).play()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks)

"""Claims and ratings through a real relay (docs/ratings.md): the mover's claim rides its
game-ending move, an agreed end is rated by it, a wrong claim is disputed and not rated, the
ratings reads answer, and a seek within a rating range meets an opponent in it.

These need the relay's ratings: the `claim` on moves, the ratings endpoints and the seeks'
`rating_range`.
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from sdk import (
    Moved,
    RatingRange,
    Reason,
    RelayClient,
    RelayHost,
    RelayRefusedError,
    Result,
    State,
    new_player_key,
)
from sdk._claims import WRONG_CLAIM
from sdk.ratings import MatchRatings
from sdk.testing import FAST
from tests.sdk.scripted import Side, play_pair, relay_log, ticket_of
from tests.support.idle_game import Idle

ENDED = State.GAME_ENDED


async def rated(relay: str, match: str) -> MatchRatings:
    """Returns the match's ratings once the relay has rated it (or found it not rated)."""
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, FAST)
        async with asyncio.timeout(10):
            while True:
                answer = await client.match_ratings(match)
                if answer.rated != "pending":
                    return answer
                await asyncio.sleep(0.05)


async def test_an_agreed_end_is_rated_by_the_movers_claim(relay: str) -> None:
    keys = [new_player_key(), new_player_key()]
    first = Side(["a1", "a2!"], result=Result.WON)
    second = Side(["b1"], answers={"a2!": ENDED}, result=Result.LOST)
    played = await play_pair(relay, first, second, players=keys)
    assert played.outcome(True).reason is Reason.AGREED
    log = await relay_log(relay, played.match)
    assert [event.claim for event in log if isinstance(event, Moved) and event.end] == ["win"]
    answer = await rated(relay, played.match)
    assert answer.rated is True and answer.changes is not None
    winner_seat = ticket_of(played.first).seat
    won, lost = answer.changes[winner_seat], answer.changes[1 - winner_seat]
    assert (won.before, lost.before) == (1500.0, 1500.0)
    # Two new players' first game (relay.core.ratings): 1741.62 and 1258.38.
    assert won.after == pytest.approx(1741.62, abs=0.05)
    assert lost.after == pytest.approx(1258.38, abs=0.05)
    change = await played.first.rating_change()
    assert change is not None and change.after == won.after and change.delta > 0
    winner_key = played.first.player
    assert winner_key in keys
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, FAST)
        (mine,) = await client.ratings(winner_key, game="scripted")
        assert mine.shown == "1741?"
        assert (mine.game, mine.games, mine.provisional) == ("scripted", 1, True)
        assert mine.shown.endswith("?")
        assert [game.match for game in mine.history] == [played.match]
        assert mine.history[0].score == 1.0 and mine.history[0].opponent == 1500.0
        assert await client.ratings(new_player_key()) == []
        board = await client.leaderboard("scripted", limit=10)
        assert board.game == "scripted"
        assert board.players == ()  # one game each: both still provisional
        listed = await client.player_matches(winner_key)
        (row,) = [row for row in listed if row.match == played.match]
        assert row.rating is not None and row.rating.after == won.after


async def test_an_agreed_end_without_a_claim_is_not_rated(relay: str) -> None:
    keys = [new_player_key(), new_player_key()]
    first = Side(["a1", "a2!"])  # its game cannot tell the result: no claim
    second = Side(["b1"], answers={"a2!": ENDED})
    played = await play_pair(relay, first, second, players=keys)
    assert played.outcome(True).reason is Reason.AGREED
    log = await relay_log(relay, played.match)
    assert [event.claim for event in log if isinstance(event, Moved) and event.end] == [None]
    assert (await rated(relay, played.match)).rated is False
    assert await played.first.rating_change(wait=0) is None


async def test_a_claim_the_partners_game_finds_wrong_is_disputed_and_not_rated(
    relay: str,
) -> None:
    keys = [new_player_key(), new_player_key()]
    first = Side(["a1", "a2!"], result=Result.WON)
    second = Side(["b1"], answers={"a2!": ENDED}, result=Result.WON)  # the mover lost, here
    played = await play_pair(relay, first, second, players=keys)
    outcome = played.outcome(True)
    assert outcome.reason is Reason.DISPUTED
    assert outcome.detail == WRONG_CLAIM.format(claimed="a win", found="a loss")
    assert (await rated(relay, played.match)).rated is False


async def test_seeks_within_a_rating_range_meet_and_a_range_needs_a_key_and_no_room(
    relay: str,
) -> None:
    near = RatingRange(within=100)
    hosts = [
        RelayHost(relay, "ranged", Idle, player=new_player_key(), rating_range=near, timing=FAST)
        for _ in "ab"
    ]
    started = [asyncio.Event() for _ in hosts]
    for host, event in zip(hosts, started, strict=True):
        host._on_state = lambda state, event=event: (
            event.set() if state in (State.PLAYING_TO_MOVE, State.PLAYING_WAIT_MOVE) else None
        )
    playing = [asyncio.create_task(host.play()) for host in hosts]
    async with asyncio.timeout(10):
        await asyncio.gather(*(event.wait() for event in started))
    assert ticket_of(hosts[0]).match == ticket_of(hosts[1]).match  # both new: 1500 each
    for host in hosts:
        host.resign()
    await asyncio.gather(*playing)
    async with aiohttp.ClientSession() as session:
        client = RelayClient(session, relay, FAST)
        with pytest.raises(RelayRefusedError) as refused:
            await client.seek("ranged", rating_range=near)  # no player key
        assert (refused.value.status, refused.value.code) == (400, "request/invalid")
        with pytest.raises(RelayRefusedError):
            await client.seek("ranged", room="r1", player=new_player_key(), rating_range=near)
        # Far apart: a seek wanting 2000 and up does not meet a new key's 1500.
        high = await client.seek(
            "ranged", player=new_player_key(), rating_range=RatingRange(min=2000)
        )
        low = await client.seek("ranged", player=new_player_key())
        assert high.match != low.match

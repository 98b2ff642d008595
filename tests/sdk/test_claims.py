"""A game-ending move's claim: sent from the mover's game, carried by the move event, and
checked by the partner's game; the ratings reads parse the relay's answers."""

from __future__ import annotations

from typing import Any

import pytest

from sdk import (
    Game,
    GameHost,
    Moved,
    PlayerMatch,
    RatedGame,
    RatingChange,
    RatingRange,
    RelayHost,
    Result,
    State,
)
from sdk._answers import Reply, reply_to
from sdk._claims import WRONG_CLAIM, check_claim, claim_of
from sdk._endings import ending
from sdk._healing import Write, lost_writes
from sdk.client import _move_body
from sdk.errors import ProtocolError
from sdk.events import Ended, parse_event
from sdk.ratings import parse_leaderboard, parse_match_ratings, parse_ratings
from tests.support.desk import DeskHost


class Ending(Game):
    """Agrees every game-ending move, and finds `found` as its result."""

    def __init__(self, host: GameHost, first_move: bool, found: Result | None = None) -> None:
        super().__init__(host, first_move)
        self.found = found
        self.asked = 0

    def enable(self) -> None:
        pass

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        return State.GAME_ENDED

    def result(self) -> Result | None:
        self.asked += 1
        return self.found


def ending_move(claim: Any = None) -> Moved:
    return Moved(7, 0, "a3!", True, claim=claim)


# -- what a mover claims ---------------------------------------------------------------------


def test_a_mover_claims_its_games_result_or_nothing_when_it_cannot_tell() -> None:
    assert claim_of(Result.WON) == "win"
    assert claim_of(Result.DRAWN) == "draw"
    assert claim_of(Result.LOST) == "loss"
    assert claim_of(Result.UNKNOWN) is None
    assert claim_of(None) is None


def test_a_move_body_carries_the_claim_and_words_only_with_the_end() -> None:
    assert _move_body(4, "a3", True, "win", "") == {
        "after": 4,
        "move": "a3",
        "end": True,
        "claim": "win",
    }
    assert _move_body(4, "a3", True, None, "") == {"after": 4, "move": "a3", "end": True}
    assert _move_body(4, "a3", False, "win", "mills") == {"after": 4, "move": "a3", "end": False}
    said = _move_body(4, "a3", True, "win", " three\nmills " + "!" * 300)
    assert said["detail"] == ("three mills " + "!" * 300)[:200]  # cleaned as a reason is
    assert "detail" not in _move_body(4, "a3", True, "win", " \t ")


def test_a_move_event_reads_its_claim_and_a_move_posted_again_is_the_same_move() -> None:
    raw = {"type": "move", "seq": 7, "seat": 0, "move": "a3!", "end": True, "claim": "draw"}
    moved = parse_event(raw)
    assert isinstance(moved, Moved) and moved.claim == "draw"
    assert moved == ending_move()  # the claim, like the clock, is not what the move is
    plain = parse_event({**raw, "claim": None})
    assert isinstance(plain, Moved) and plain.claim is None
    with pytest.raises(ProtocolError):
        parse_event({**raw, "claim": "won"})


def test_a_lost_game_ending_move_is_posted_again_with_its_claim() -> None:
    delivered = {7: Moved(7, 1, "a3!", True, claim="win")}
    assert lost_writes(delivered, 6, 1, None) == [Write("move", 6, "a3!", True, claim="win")]


# -- what the partner checks -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "found"),
    [("win", Result.LOST), ("draw", Result.DRAWN), ("loss", Result.WON),
     ("win", None), ("loss", Result.UNKNOWN), (None, Result.WON)],
)  # fmt: skip
def test_a_claim_whose_mirror_the_game_finds_or_cannot_tell_is_agreed(
    claim: Any, found: Result | None
) -> None:
    game = Ending(DeskHost(), False, found)
    assert reply_to(game, ending_move(claim), 5) == Reply("confirm", agree=True)
    assert check_claim(claim, found) == ""
    assert game.asked == (0 if claim is None else 1)  # no claim: the game is not asked


def test_a_claim_the_partners_game_finds_wrong_is_disputed_with_the_reason() -> None:
    game = Ending(DeskHost(), False, Result.WON)  # the mover lost, by this side's game
    reply = reply_to(game, ending_move("win"), 5)
    reason = WRONG_CLAIM.format(claimed="a win", found="a loss")
    assert reply == Reply("confirm", agree=False, reason=reason)
    assert reason.startswith("the claimed result is wrong: ")
    drawn = reply_to(Ending(DeskHost(), False, Result.DRAWN), ending_move("loss"), 5)
    assert drawn.reason.endswith("the mover claimed a loss, its partner's game finds a draw")


def test_a_wrong_claims_dispute_is_told_to_both_sides_in_words() -> None:
    detail = WRONG_CLAIM.format(claimed="a win", found="a loss")
    ended = Ended(9, "disputed", 1, at=8, detail=detail)
    disputer = ending(ended, 1, lambda: Result.WON, Moved(8, 0, "a3!", True), 12)
    mover = ending(ended, 0, lambda: Result.WON, Moved(8, 0, "a3!", True), 12)
    assert disputer[:2] == mover[:2] == (Result.UNKNOWN, ended.reason)
    assert disputer[2] == (
        "Your game does not accept the result your partner claimed with its move 12: "
        "the mover claimed a win, its partner's game finds a loss. Disputed."
    )
    assert mover[2] == (
        "Your partner's game does not accept the result you claimed with your move 12: "
        "the mover claimed a win, its partner's game finds a loss. Disputed."
    )


# -- rating ranges and the reads -------------------------------------------------------------


def test_a_rating_range_is_within_alone_or_bounds() -> None:
    assert RatingRange(within=200).to_json() == {"within": 200}
    assert RatingRange(min=1400, max=1700).to_json() == {"min": 1400, "max": 1700}
    assert RatingRange(max=1700).to_json() == {"max": 1700}
    for bad in ({}, {"within": 0}, {"within": 100, "min": 1}, {"min": 1800, "max": 1700},
                {"max": 4001}, {"min": -1}):  # fmt: skip
        with pytest.raises(ValueError, match="a rating range is"):
            RatingRange(**bad)


def test_a_leaderboard_reads_best_first() -> None:
    raw = {"game": "connect4", "players": [
        {"rank": 1, "id": "abc", "name": "Ada", "rating": 1873.4, "deviation": 60.2,
         "games": 30, "shown": "1873"},
        {"rank": 2, "id": "def", "name": None, "rating": 1701, "deviation": 90,
         "games": 12, "shown": "1701"},
    ]}  # fmt: skip
    board = parse_leaderboard(raw)
    assert board.game == "connect4"
    assert [(p.rank, p.name, p.shown) for p in board.players] == [
        (1, "Ada", "1873"), (2, None, "1701")
    ]  # fmt: skip
    with pytest.raises(ProtocolError):
        parse_leaderboard({"game": "connect4"})


def test_a_players_ratings_read_with_their_history() -> None:
    raw = {"ratings": [{
        "game": "xand0", "rating": 1742.8, "deviation": 397.1, "games": 1, "provisional": True,
        "shown": "1742?", "at": 1700000000.5,
        "history": [{"match": "m1", "at": 1700000000.5, "score": 1, "before": 1500,
                     "after": 1742.8, "opponent": 1500}],
    }]}  # fmt: skip
    (rating,) = parse_ratings(raw)
    assert (rating.game, rating.shown, rating.provisional, rating.games) == (
        "xand0", "1742?", True, 1
    )  # fmt: skip
    assert rating.history == (RatedGame("m1", 1700000000.5, 1.0, 1500.0, 1742.8, 1500.0),)
    assert parse_ratings({"ratings": []}) == []
    with pytest.raises(ProtocolError):
        parse_ratings({"ratings": [{"game": "xand0"}]})


def test_a_matchs_ratings_read_rated_pending_or_not() -> None:
    info = {"match": "m1", "status": "finished"}
    assert parse_match_ratings(info).rated is False  # a relay without ratings
    assert parse_match_ratings({**info, "rated": "pending"}).rated == "pending"
    rated = parse_match_ratings(
        {**info, "rated": True, "ratings": [{"before": 1500, "after": 1742.8},
                                            {"before": 1500, "after": 1257.2}]}
    )  # fmt: skip
    assert rated.changes is not None
    assert rated.changes[0] == RatingChange(1500.0, 1742.8)
    assert rated.changes[1].delta == pytest.approx(-242.8)
    with pytest.raises(ProtocolError):
        parse_match_ratings({**info, "rated": "yes"})


def test_a_player_matchs_entry_reads_its_rating_change() -> None:
    row = {"match": "m1", "game": "xand0", "version": "", "seat": 0, "status": "finished",
           "turn": None, "your_turn": False, "time_control": None, "left": None, "last": 9,
           "result": {"reason": "agreed", "seat": 1}}  # fmt: skip
    assert PlayerMatch.from_json(row).rating is None
    rated = PlayerMatch.from_json({**row, "rating": {"before": 1500, "after": 1742.8}})
    assert rated.rating == RatingChange(1500.0, 1742.8)


async def test_a_host_that_has_not_played_has_no_rating_change() -> None:
    host = RelayHost("http://127.0.0.1:9", "xand0", Ending)
    assert await host.rating_change() is None  # no seat, no end: nothing asked of a relay

"""Player keys and contact handles (relay/core/players.py): the patience of a correspondence
match, the limit of matches a key may have open, and the list of a key's matches in the order a
player comes back to them."""

from __future__ import annotations

from relay.core.clock import Clock, TimeControl
from relay.core.model import MatchInfo, Status
from relay.core.players import (
    LISTED,
    PlayerMatch,
    last_name,
    listing,
    over_limit,
    patience,
    same_player,
    too_many,
)

NOW = 1_800_000_000.0
KEY = "Kq3xW9" + "k" * 37


def test_a_correspondence_match_waits_out_a_deadline_not_only_the_grace() -> None:
    assert patience(None, 60.0) == 60.0
    assert patience(TimeControl("fischer", 3600, 0), 60.0) == 60.0
    assert patience(TimeControl("deadline", 86400), 60.0) == 86400.0
    assert patience(TimeControl("deadline", 30), 60.0) == 60.0


def test_a_key_never_plays_itself_in_a_room() -> None:
    error = same_player("friday")
    assert (error.code, error.status) == ("room/same_player", 409)
    assert "'friday'" in error.message


def test_a_key_with_as_many_matches_not_finished_as_listed_may_seek_no_more() -> None:
    assert not over_limit([Status.PLAYING] * (LISTED - 1))
    assert over_limit([Status.WAITING, Status.ENDING] + [Status.PLAYING] * (LISTED - 2))
    # A finished match, a cancelled or dropped seek do not count.
    assert not over_limit([Status.FINISHED, Status.EXPIRED] * LISTED + [Status.PLAYING])
    error = too_many()
    assert (error.code, error.status, error.retry_after) == ("player/too_many", 429, 60.0)
    assert str(LISTED) in error.message


def row(
    name: str,
    status: Status,
    seat: int = 0,
    turn: int | None = None,
    *,
    opened: float = 1.0,
    since: float = 1.0,
    clock: Clock | None = None,
    result: dict[str, object] | None = None,
    rating: tuple[float, float] | None = None,
) -> PlayerMatch:
    """Returns a match of the key's, listed under the match id name."""
    info = MatchInfo(name, "xand0", "1", None, status, turn, 3, 0, clock=clock)
    return PlayerMatch(info, seat, opened, since, result, rating)


def test_a_keys_turns_come_first_then_its_partners_then_waiting_then_finished() -> None:
    def clocked(left: int) -> Clock:
        return Clock(TimeControl("deadline", 86400), (left, left), int(NOW * 1000))

    found = [
        row("done-old", Status.FINISHED, opened=1.0, since=10.0),
        row("waiting", Status.WAITING, opened=5.0, since=5.0),
        row("theirs", Status.PLAYING, seat=0, turn=1, opened=2.0, since=2.0),
        row("ending", Status.ENDING, seat=1, turn=None, opened=3.0, since=3.0),
        row("mine-plain", Status.PLAYING, seat=1, turn=1, opened=1.0, since=1.0),
        row("mine-late", Status.PLAYING, turn=0, opened=1.0, since=1.0, clock=clocked(9_000)),
        row("mine-soon", Status.PLAYING, turn=0, opened=1.0, since=1.0, clock=clocked(5_000)),
        row("done-new", Status.FINISHED, opened=1.0, since=20.0),
    ]
    listed = listing(found, NOW)
    assert [entry["match"] for entry in listed] == [
        "mine-soon",  # least time left first
        "mine-late",
        "mine-plain",  # no clock: after every clocked one
        "ending",  # the partner is to agree or dispute (latest opened first)
        "theirs",
        "waiting",
        "done-new",  # newest first
        "done-old",
    ]
    assert [entry["your_turn"] for entry in listed] == [True] * 3 + [False] * 5


def test_each_listed_match_says_whose_turn_and_the_time_left() -> None:
    clock = Clock(TimeControl("fischer", 300, 3), (300_000, 200_000), int(NOW * 1000))
    result = {"reason": "resigned", "seat": 1}
    found = [
        row("live", Status.PLAYING, seat=1, turn=1, opened=1.0, since=2.0, clock=clock),
        row("over", Status.FINISHED, opened=1.0, since=2.0, result=result, rating=(1500, 1523.46)),
    ]
    live, over = listing(found, NOW + 20)
    assert live == {
        "match": "live",
        "game": "xand0",
        "version": "1",
        "room": None,
        "seat": 1,
        "status": "playing",
        "turn": 1,
        "your_turn": True,
        "time_control": {"kind": "fischer", "base": 300, "increment": 3},
        "left": [300.0, 180.0],
        "last": 3,
        "first": 0,
        "names": [None, None],
        "players": [None, None],
    }
    assert (over["your_turn"], over["left"], over["result"]) == (False, None, result)
    assert over["rating"] == {"before": 1500.0, "after": 1523.5}


def test_at_most_the_listed_number_of_matches_are_answered() -> None:
    found = [row(f"m{n}", Status.FINISHED, opened=1.0, since=float(n)) for n in range(LISTED + 5)]
    listed = listing(found, NOW)
    assert len(listed) == LISTED
    assert listed[0]["match"] == f"m{LISTED + 4}"


def test_a_signed_in_key_is_named_as_in_the_match_it_seated_last_that_has_a_name() -> None:
    def named(
        match: str, seat: int, opened: float, names: tuple[str | None, str | None]
    ) -> PlayerMatch:
        info = MatchInfo(match, "xand0", "1", None, Status.FINISHED, None, 3, 0, names=names)
        return PlayerMatch(info, seat, opened, opened)

    found = [
        named("old", 0, 1.0, ("Ann", "Bob")),
        named("newer", 1, 5.0, ("Cy", "Ann B")),  # its own seat's name, not the partner's
        named("newest", 0, 9.0, (None, "Bob")),  # sought without a name: not counted
    ]
    assert last_name(found) == "Ann B"
    assert last_name(found[2:]) is None
    assert last_name([]) is None

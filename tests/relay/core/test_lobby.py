"""The lobby's rules (relay/core/lobby.py): which list a match belongs in, how an entry heals
as its match moves on, how many moves it shows, and an entry as the endpoint sends it."""

from __future__ import annotations

import pytest

from relay.core.clock import Clock, TimeControl
from relay.core.lobby import KINDS, LobbyEntry, LobbyKind, heal, kind_of, lobby_entry_json, moves_of
from relay.core.model import MatchInfo, Status


def info(
    status: Status,
    last: int = 1,
    *,
    room: str | None = None,
    turn: int | None = None,
    first: int | None = None,
    clock: Clock | None = None,
    names: tuple[str | None, str | None] = (None, None),
) -> MatchInfo:
    """Returns a summary of an X and 0 match in this status, its log ending at event last."""
    return MatchInfo("M" * 16, "xand0", "1", room, status, turn, last, first, clock, names)


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (Status.WAITING, "open"),
        (Status.PLAYING, "live"),
        (Status.ENDING, "live"),
        (Status.FINISHED, "recent"),
        (Status.EXPIRED, None),
    ],
)
def test_each_status_belongs_in_one_list_but_an_expired_seek_in_none(
    status: Status, kind: LobbyKind | None
) -> None:
    assert kind_of(status) == kind


def test_the_lists_run_in_the_order_a_match_lives() -> None:
    assert KINDS == ("open", "live", "recent")


@pytest.mark.parametrize(
    ("listed", "status", "healed"),
    [
        ("open", Status.WAITING, "open"),
        ("open", Status.PLAYING, "live"),
        ("open", Status.FINISHED, "recent"),
        ("live", Status.ENDING, "live"),
        ("live", Status.FINISHED, "recent"),
        ("recent", Status.FINISHED, "recent"),
        # Listed live at its pairing, a match waits for seat 0 to poll again: still live.
        ("live", Status.WAITING, "live"),
        # A match never goes back: an entry that would is stale, and is dropped.
        ("recent", Status.PLAYING, None),
        ("recent", Status.WAITING, None),
        # A seek cancelled or dropped is listed nowhere.
        ("open", Status.EXPIRED, None),
    ],
)
def test_an_entry_moves_on_with_its_match_and_never_back(
    listed: LobbyKind, status: Status, healed: LobbyKind | None
) -> None:
    assert heal(listed, info(status)) == healed


@pytest.mark.parametrize("listed", KINDS)
def test_an_entry_whose_match_is_gone_is_dropped(listed: LobbyKind) -> None:
    assert heal(listed, None) is None


@pytest.mark.parametrize(
    ("status", "last", "moves"),
    [
        (Status.WAITING, 0, 0),
        (Status.PLAYING, 1, 0),  # started only
        (Status.PLAYING, 6, 5),
        (Status.ENDING, 6, 5),  # the game-ending move is a move
        (Status.FINISHED, 7, 5),  # neither started nor ended counts
        (Status.FINISHED, 2, 0),  # resigned before any move
        (Status.FINISHED, 1, 0),  # never below zero
    ],
)
def test_the_moves_shown_leave_out_the_start_and_the_end(
    status: Status, last: int, moves: int
) -> None:
    assert moves_of(info(status, last)) == moves


def test_an_entry_is_sent_with_its_matchs_fields() -> None:
    clock = Clock(TimeControl("fischer", 300, 3), (300_000, 300_000), 0)
    entry = LobbyEntry(
        "live",
        1_800_000_000.12345,
        info(Status.PLAYING, 4, room="friday", clock=clock, names=("Ann", None), turn=1, first=0),
    )
    assert lobby_entry_json(entry) == {
        "match": "M" * 16,
        "game": "xand0",
        "version": "1",
        "room": "friday",
        "status": "playing",
        "moves": 3,
        "since": 1_800_000_000.123,
        "time_control": {"kind": "fischer", "base": 300, "increment": 3},
        "names": ["Ann", None],
    }
    plain = lobby_entry_json(LobbyEntry("open", 5.0, info(Status.WAITING, 0)))
    assert (plain["status"], plain["moves"], plain["time_control"]) == ("waiting", 0, None)
    assert plain["names"] == [None, None]

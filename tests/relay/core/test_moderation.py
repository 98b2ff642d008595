"""Moderation as data (relay/core/moderation.py): a ban's target read and made canonical, which
ban covers a seeker, the refusal it answers, players' blocks and reports read, and each record
as the stores keep it and the admin API answers it."""

from __future__ import annotations

import pytest

from relay.core.errors import RelayError
from relay.core.moderation import (
    REPORT_ABOUT,
    REPORT_TEXT,
    Ban,
    Blocked,
    Erased,
    Report,
    SeatVoid,
    Voided,
    ban_target,
    banned_error,
    block_kind,
    is_banned,
    report_about,
    report_text,
)
from relay.core.standings import public_id

NOW = 1_800_000_000.0
ID = public_id("a" * 64)
OTHER = public_id("b" * 64)


@pytest.mark.parametrize(
    ("given", "target"),
    [
        (f"id:{ID}", f"id:{ID}"),
        (ID, f"id:{ID}"),
        ("-startswith-", "id:-startswith-"),
        ("203.0.113.7", "203.0.113.7/32"),
        (" 203.0.113.7/24 ", "203.0.113.0/24"),
        ("10.0.0.0/8", "10.0.0.0/8"),
        ("2001:DB8::1", "2001:db8::1/128"),
        ("2001:db8:0:0::/32", "2001:db8::/32"),
    ],
)
def test_a_ban_target_is_a_public_id_or_an_address_range_made_canonical(
    given: str, target: str
) -> None:
    assert ban_target(given) == target
    assert ban_target(target) == target


@pytest.mark.parametrize(
    "given",
    [f"id:{ID}x", "id:short", "id:", "hello", "", "300.1.1.1", "10.0.0.0/33", 42, None, [ID]],
)
def test_anything_else_is_refused_as_a_ban_target(given: object) -> None:
    with pytest.raises(RelayError) as caught:
        ban_target(given)
    assert (caught.value.code, caught.value.status) == ("request/invalid", 400)
    assert repr(given) in caught.value.message


def ban(target: str, seconds: float, reason: str = "") -> Ban:
    """Returns a ban of target made at NOW - 10, lasting until NOW + seconds."""
    return Ban(ban_target(target), NOW + seconds, reason, NOW - 10)


def test_a_ban_of_a_public_id_covers_any_seeker_showing_it() -> None:
    bans = [ban(ID, 60)]
    assert is_banned(bans, (ID,), None, NOW) == bans[0]
    assert is_banned(bans, (OTHER, ID), "198.51.100.1", NOW) == bans[0]
    assert is_banned(bans, (OTHER,), "198.51.100.1", NOW) is None
    assert is_banned(bans, ("",), None, NOW) is None
    assert is_banned(bans, (), None, NOW) is None


@pytest.mark.parametrize(
    ("address", "covered"),
    [
        ("203.0.113.1", True),
        ("203.0.113.255", True),
        ("203.0.114.1", False),
        ("2001:db8::1", False),  # an IPv6 seeker is not in an IPv4 range
        ("not an address", False),
        ("", False),
        (None, False),
    ],
)
def test_a_ban_of_an_address_range_covers_the_addresses_in_it(
    address: str | None, covered: bool
) -> None:
    bans = [ban(f"id:{OTHER}", 60), ban("203.0.113.0/24", 60)]
    assert is_banned(bans, (ID,), address, NOW) == (bans[1] if covered else None)


def test_an_ipv6_range_covers_its_addresses() -> None:
    bans = [ban("2001:db8::/32", 60)]
    assert is_banned(bans, (), "2001:db8:ffff::7", NOW) == bans[0]
    assert is_banned(bans, (), "2001:db9::7", NOW) is None
    assert is_banned(bans, (), "203.0.113.1", NOW) is None


def test_a_ban_ends_at_its_time() -> None:
    bans = [ban(ID, 60)]
    assert is_banned(bans, (ID,), None, NOW + 59.9) == bans[0]
    assert is_banned(bans, (ID,), None, NOW + 60) is None


def test_of_the_bans_that_cover_a_seeker_the_longest_is_answered() -> None:
    short, long, ended = ban(ID, 60), ban("203.0.113.0/24", 3600), ban("203.0.113.7", 7200)
    bans = [short, long, ban(ID, -1), ended]
    assert is_banned(bans, (ID,), "203.0.113.7", NOW + 7200) is None
    assert is_banned(bans, (ID,), "203.0.113.7", NOW) == ended
    assert is_banned(bans[:3], (ID,), "203.0.113.7", NOW) == long
    assert is_banned(bans[:3], (ID,), None, NOW) == short


def test_a_banned_seeker_is_told_what_is_banned_for_how_long_and_why() -> None:
    error = banned_error(ban(ID, 90.4, "cheating"), NOW)
    assert (error.code, error.status) == ("player/banned", 403)
    assert error.message == (
        "This player key is banned from new matches on this relay for 90 s more: cheating."
    )
    by_address = banned_error(ban("203.0.113.7", 0.2), NOW).message
    assert by_address.startswith("This address is banned") and "for 1 s more" in by_address
    assert by_address.endswith(": no reason given.")
    partner = banned_error(ban(ID, 60), NOW, "Your partner's player key").message
    assert partner.startswith("Your partner's player key is banned")


@pytest.mark.parametrize(("given", "kind"), [("block", "block"), ("mute", "mute"), ("none", None)])
def test_a_block_request_is_a_block_a_mute_or_none(given: str, kind: str | None) -> None:
    assert block_kind(given) == kind


@pytest.mark.parametrize("given", ["Block", "unblock", "", None, True])
def test_any_other_block_kind_is_refused(given: object) -> None:
    with pytest.raises(RelayError) as caught:
        block_kind(given)
    assert caught.value.code == "request/invalid" and repr(given) in caught.value.message


def test_a_report_is_about_play_a_name_or_chat() -> None:
    assert [report_about(about) for about in REPORT_ABOUT] == ["play", "name", "chat"]
    for wrong in ("cheating", "", None, ["play"]):
        with pytest.raises(RelayError) as caught:
            report_about(wrong)
        assert caught.value.code == "request/invalid"
        assert "must be one of play, name, chat" in caught.value.message


def test_a_reports_words_are_clean_chat_or_none() -> None:
    assert report_text(None) == report_text("") == ""
    assert report_text("  He said 💩 👍🏽  ") == "He said 💩 👍🏽"
    assert report_text("x" * REPORT_TEXT) == "x" * REPORT_TEXT
    for wrong in ("x" * (REPORT_TEXT + 1), "a\u202eb", "line\nbreak", 5):
        with pytest.raises(RelayError) as caught:
            report_text(wrong)
        assert caught.value.code == "request/invalid"


def test_a_ban_and_a_report_come_back_as_a_store_kept_them() -> None:
    kept = ban("203.0.113.0/24", 60, "flood")
    assert Ban.from_dict(kept.as_dict()) == kept
    assert kept.as_dict() == {
        "target": "203.0.113.0/24",
        "until": NOW + 60,
        "reason": "flood",
        "at": NOW - 10,
    }
    as_text = {"target": f"id:{ID}", "until": "1800000060", "reason": "x", "at": "1800000000"}
    assert Ban.from_dict(as_text) == Ban(f"id:{ID}", NOW + 60, "x", NOW)
    report = Report(3, NOW, "M" * 16, "xand0", "chat", "rude", ID, None, "Bob", ("hi", "rude"))
    assert Report.from_dict(report.as_dict()) == report
    assert report.as_dict()["chat"] == ["hi", "rude"]
    older = {key: value for key, value in report.as_dict().items() if key != "chat"}
    assert Report.from_dict(older).chat == ()


def test_blocks_voids_and_erasures_are_answered_with_their_fields() -> None:
    assert Blocked(ID, None, "mute", NOW).as_dict() == {
        "id": ID,
        "name": None,
        "kind": "mute",
        "at": NOW,
    }
    seat = SeatVoid(ID, 1500.04, 1523.96, 1500.04, True)
    assert seat.as_dict() == {
        "id": ID,
        "before": 1500.0,
        "after": 1524.0,
        "now": 1500.0,
        "exact": True,
    }
    assert Voided("M" * 16, "xand0", "voided", (seat,)).as_dict() == {
        "match": "M" * 16,
        "game": "xand0",
        "state": "voided",
        "seats": [seat.as_dict()],
    }
    assert Voided("M" * 16, "xand0", "not_rated").as_dict()["seats"] == []
    assert Erased(ID, 2, 7, 1).as_dict() == {"id": ID, "matches": 2, "lines": 7, "ratings": 1}

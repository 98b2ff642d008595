"""Moderation as data (relay/core/moderation.py): which ban covers a seeker, the refusal it
answers, and each record as the stores keep it and the admin API answers it (the requests'
fields: tests/relay/api/fields/test_moderation.py)."""

from __future__ import annotations

import ipaddress

import pytest

from relay.core.moderation import (
    PUBLIC_ID,
    Ban,
    Blocked,
    Erased,
    Report,
    SeatVoid,
    Voided,
    banned_error,
    is_banned,
)
from relay.core.standings import public_id

NOW = 1_800_000_000.0
ID = public_id("a" * 64)
OTHER = public_id("b" * 64)


def canonical(target: str) -> str:
    """Returns a ban's target as relay.api.fields.moderation.ban_target writes it: 'id:' and a
    public id, or a network in CIDR form."""
    if PUBLIC_ID.fullmatch(target):
        return f"id:{target}"
    return target if target.startswith("id:") else str(ipaddress.ip_network(target, strict=False))


def ban(target: str, seconds: float, reason: str = "") -> Ban:
    """Returns a ban of target made at NOW - 10, lasting until NOW + seconds."""
    return Ban(canonical(target), NOW + seconds, reason, NOW - 10)


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

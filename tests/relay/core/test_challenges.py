"""The rules of challenges (relay.core.challenges): who may give which answer, once; the
first mover by colour; lapses; the answer's shape."""

from __future__ import annotations

import pytest

from relay.core import challenges as rules
from relay.core.challenges import Challenge, listing_order, receiver_of, settle
from relay.core.clock import TimeControl
from relay.core.errors import RelayError


def made(
    colour: str = "random", control: TimeControl | None = None, at: float = 100.0
) -> Challenge:
    until = at + rules.lapse_for(control)
    return Challenge(
        rules.new_challenge_id("R" * 12), "S" * 12, "sd", "Ann", "R" * 12, "rd", "chess", "",
        control, colour, True, at, until,  # type: ignore[arg-type]
    )  # fmt: skip


def test_an_id_names_its_challenged_key() -> None:
    one, other = rules.new_challenge_id("R" * 12), rules.new_challenge_id("R" * 12)
    assert len(one) == 24 and one != other and receiver_of(one) == "R" * 12


def test_a_correspondence_challenge_waits_longer() -> None:
    assert rules.lapse_for(None) == rules.LAPSE_LIVE
    assert rules.lapse_for(TimeControl("fischer", 300, 3)) == rules.LAPSE_LIVE
    assert rules.lapse_for(TimeControl("deadline", 86_400)) == rules.LAPSE_CORRESPONDENCE


@pytest.mark.parametrize(
    ("colour", "coin", "first"),
    [("first", 1, 0), ("second", 0, 1), ("random", 1, 1), ("random", 0, 0)],
)
def test_the_first_mover_follows_the_challengers_colour(colour: str, coin: int, first: int) -> None:
    accepted = settle(made(colour), "rd", "accept", 101.0, "M" * 16, coin, "Bob")
    assert (accepted.state, accepted.first, accepted.match) == ("accepted", first, "M" * 16)
    assert accepted.receiver_name == "Bob" and accepted.settled == 101.0


def test_only_the_challenged_key_answers_and_only_the_challenger_withdraws() -> None:
    for actor, action in (("sd", "accept"), ("sd", "decline"), ("rd", "withdraw"), ("x", "accept")):
        with pytest.raises(RelayError) as refused:
            settle(made(), actor, action, 101.0, "M", 0)  # type: ignore[arg-type]
        assert refused.value.code == "challenge/unknown"
    assert settle(made(), "sd", "withdraw", 101.0, "M", 0).state == "withdrawn"


def test_an_answer_settles_once_and_repeats_harmlessly() -> None:
    accepted = settle(made(), "rd", "accept", 101.0, "M1", 0)
    assert settle(accepted, "rd", "accept", 102.0, "M2", 1) is accepted
    with pytest.raises(RelayError) as refused:
        settle(accepted, "sd", "withdraw", 102.0, "M", 0)
    assert refused.value.code == "challenge/settled" and "accepted" in refused.value.message


def test_an_open_challenge_lapses_at_its_time() -> None:
    found = made()
    assert found.seen(found.until - 1).state == "open"
    assert found.seen(found.until).state == "lapsed"
    with pytest.raises(RelayError) as refused:
        settle(found, "rd", "accept", found.until, "M", 0)
    assert "lapsed" in refused.value.message
    assert found.forget_at() == found.until + rules.KEPT
    declined = settle(found, "rd", "decline", 150.0, "M", 0)
    assert declined.forget_at() == 150.0 + rules.KEPT


def test_terms_round_trip_and_the_answer_shows_no_digest() -> None:
    found = made(control=TimeControl("fischer", 300, 3))
    assert Challenge.from_terms(found.terms()) == found
    shown = found.answer()
    assert shown["from"] == {"id": "S" * 12, "name": "Ann"}
    assert shown["time_control"] == {"kind": "fischer", "base": 300, "increment": 3}
    assert "sd" not in str(shown) and "rd" not in str(shown.values())
    assert found.answer(names=False)["from"]["name"] is None


def test_a_list_shows_open_challenges_oldest_first_then_settled_newest_first() -> None:
    old, new = made(at=100.0), made(at=200.0)
    done_old = settle(made(at=50.0), "rd", "decline", 300.0, "M", 0)
    done_new = settle(made(at=60.0), "rd", "decline", 300.0, "M", 0)
    assert listing_order([new, done_old, old, done_new]) == [old, new, done_new, done_old]

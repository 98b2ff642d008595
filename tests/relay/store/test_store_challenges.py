"""Challenges in each store (memory, Redis, Redis Cluster), driven through Store.challenges:
made, listed, answered once (one match or none, whatever the race), capped per challenger and
per challenged key, paced, lapsed; and follows (relay.store.challenges)."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest

from relay import RelayError, Store
from relay.core import challenges as rules
from relay.core.challenges import Challenge, Colour, Followed, new_challenge_id
from relay.core.clock import TimeControl
from relay.core.model import Action, Status, hash_token
from relay.core.players import LISTED
from relay.core.standings import public_id


async def known(store: Store, now: float) -> tuple[str, str]:
    """Returns a new player key the store knows by its public id (it sought), and that id."""
    key = secrets.token_urlsafe(32)
    ticket = await store.matches.seek("chess", "", None, now, player=key)
    await store.matches.act(ticket.match, ticket.token, Action("cancel"), now)
    return key, public_id(hash_token(key))


def challenge(
    sender: str, receiver: str, now: float, colour: Colour = "first", rated: bool = False,
    control: TimeControl | None = None, until: float | None = None, name: str | None = "Ann",
) -> Challenge:  # fmt: skip
    """Returns an open challenge from one key to another (player keys, not ids)."""
    s, r = hash_token(sender), hash_token(receiver)
    to = public_id(r)
    return Challenge(
        new_challenge_id(to), public_id(s), s, name, to, r, "chess", "", control, colour,
        rated, now, now + rules.lapse_for(control) if until is None else until,
    )  # fmt: skip


async def test_a_key_is_found_by_its_public_id_once_it_sought(store: Store) -> None:
    now = time.time()
    key, public = await known(store, now)
    assert await store.challenges.digest_of(public) == hash_token(key)
    assert await store.challenges.digest_of("A" * 12) is None


async def test_an_accepted_challenge_starts_one_match_for_both_keys(store: Store) -> None:
    now = time.time()
    (a, a_id), (b, b_id) = await known(store, now), await known(store, now)
    part = store.challenges
    made = challenge(a, b, now, colour="second", control=TimeControl("fischer", 60, 1))
    await part.make(made, now)
    mine, theirs = await part.listed(a_id, now), await part.listed(b_id, now)
    assert [c.id for c in theirs.incoming] == [made.id] and theirs.outgoing == []
    assert [c.id for c in mine.outgoing] == [made.id] and mine.incoming == []
    assert mine.version >= 1 and theirs.version >= 1
    accepted = await part.answer(made.id, hash_token(b), "accept", now + 1, "Bob")
    assert accepted.state == "accepted" and accepted.first == 1 and accepted.match
    assert accepted.receiver_name == "Bob"
    again = await part.answer(made.id, hash_token(b), "accept", now + 2)
    assert again.match == accepted.match
    info = await store.matches.info(accepted.match)
    assert info.status is Status.PLAYING and info.first == 1 and info.names == ("Ann", "Bob")
    assert info.keys == (hash_token(a), hash_token(b))
    for key in (a, b):
        listed = await store.players.matches(key, now + 2)
        assert [entry.info.match for entry in listed if entry.info.match == accepted.match]
    # Each seat plays with its player key: seat 1 moves first.
    assert await store.matches.act(accepted.match, b, Action("move", 1, "e4"), now + 3) == 2
    later = await part.listed(a_id, now + 3)
    assert later.version > mine.version
    assert later.outgoing[0].state == "accepted" and later.outgoing[0].match == accepted.match
    with pytest.raises(RelayError) as refused:
        await part.answer(made.id, hash_token(a), "withdraw", now + 4)
    assert refused.value.code == "challenge/settled"


async def test_only_its_keys_answer_a_challenge_and_only_once(store: Store) -> None:
    now = time.time()
    (a, _), (b, b_id) = await known(store, now), await known(store, now)
    part = store.challenges
    made = challenge(a, b, now)
    await part.make(made, now)
    for actor, action in (
        (a, "accept"),
        (a, "decline"),
        (b, "withdraw"),
        (secrets.token_urlsafe(32), "accept"),
    ):
        with pytest.raises(RelayError) as refused:
            await part.answer(made.id, hash_token(actor), action, now)  # type: ignore[arg-type]
        assert refused.value.code == "challenge/unknown"
    declined = await part.answer(made.id, hash_token(b), "decline", now)
    assert declined.state == "declined" and declined.match is None
    assert (await part.answer(made.id, hash_token(b), "decline", now)).state == "declined"
    with pytest.raises(RelayError) as refused:
        await part.answer(made.id, hash_token(b), "accept", now)
    assert refused.value.code == "challenge/settled"
    with pytest.raises(RelayError) as refused:
        await part.answer(new_challenge_id(b_id), hash_token(b), "accept", now)
    assert refused.value.code == "challenge/unknown"


async def test_racing_accepts_and_a_withdrawal_make_one_match_or_none(store: Store) -> None:
    now = time.time()
    part = store.challenges
    matches: set[str] = set()
    for _ in range(4):
        (a, _), (b, _) = await known(store, now), await known(store, now)
        made = challenge(a, b, now)
        await part.make(made, now)
        found = await asyncio.gather(
            part.answer(made.id, hash_token(b), "accept", now),
            part.answer(made.id, hash_token(a), "withdraw", now),
            part.answer(made.id, hash_token(b), "accept", now),
            return_exceptions=True,
        )
        settled = {c.state for c in found if isinstance(c, Challenge)}
        assert len(settled) == 1
        made_now = {c.match for c in found if isinstance(c, Challenge) and c.match}
        assert len(made_now) <= 1
        matches |= made_now
        for failed in found:
            if isinstance(failed, BaseException):
                assert isinstance(failed, RelayError) and failed.code == "challenge/settled"
        b_matches = await store.players.matches(b, now)
        assert len([m for m in b_matches if m.info.status is Status.PLAYING]) == len(made_now)


async def test_an_open_challenge_lapses(store: Store) -> None:
    now = time.time()
    (a, a_id), (b, _) = await known(store, now), await known(store, now)
    part = store.challenges
    made = challenge(a, b, now, until=now + 5)
    await part.make(made, now)
    listed = await part.listed(a_id, now + 6)
    assert [c.state for c in listed.outgoing] == ["lapsed"]
    with pytest.raises(RelayError) as refused:
        await part.answer(made.id, hash_token(b), "accept", now + 6)
    assert refused.value.code == "challenge/settled"
    # A lapsed challenge holds no place: the same pair may challenge again.
    await part.make(challenge(a, b, now + 6), now + 6)
    # Forgotten KEPT after it lapsed.
    assert (await part.listed(a_id, now + 5 + rules.KEPT + 1)).outgoing[-1].id != made.id
    with pytest.raises(RelayError) as refused:
        await part.answer(made.id, hash_token(b), "accept", now + 5 + rules.KEPT + 1)
    assert refused.value.code == "challenge/unknown"


async def test_challenges_are_capped_per_pair_challenger_and_challenged(store: Store) -> None:
    now = time.time()
    part = store.challenges
    (a, _), (b, b_id) = await known(store, now), await known(store, now)
    await part.make(challenge(a, b, now), now)
    with pytest.raises(RelayError) as refused:
        await part.make(challenge(a, b, now), now)
    assert refused.value.code == "challenge/open"
    # A challenger has at most OUT_MOST open.
    for _ in range(rules.OUT_MOST - 1):
        other, _ = await known(store, now)
        await part.make(challenge(a, other, now), now)
    other, _ = await known(store, now)
    with pytest.raises(RelayError) as refused:
        await part.make(challenge(a, other, now), now)
    assert refused.value.code == "challenge/too_many"
    # b takes STRANGERS_MOST from keys it does not follow; a followed key still has room.
    for _ in range(rules.STRANGERS_MOST - 1):
        stranger, _ = await known(store, now)
        await part.make(challenge(stranger, b, now), now)
    stranger, _ = await known(store, now)
    with pytest.raises(RelayError) as refused:
        await part.make(challenge(stranger, b, now), now)
    assert refused.value.code == "challenge/full"
    friends = [await known(store, now) for _ in range(rules.IN_MOST - rules.STRANGERS_MOST + 1)]
    for _, friend_id in friends:
        await part.follow(b_id, Followed(friend_id, None, now), rules.FOLLOWS_MOST)
    for friend, _ in friends[:-1]:
        await part.make(challenge(friend, b, now), now)
    with pytest.raises(RelayError) as refused:
        await part.make(challenge(friends[-1][0], b, now), now)
    assert refused.value.code == "challenge/full"
    assert len((await part.listed(b_id, now)).incoming) == rules.IN_MOST
    # A declined challenge frees its place at once.
    first = (await part.listed(b_id, now)).incoming[0]
    await part.answer(first.id, hash_token(b), "decline", now)
    await part.make(challenge(friends[-1][0], b, now), now)


async def test_a_key_makes_a_bounded_number_of_challenges_an_hour(store: Store) -> None:
    now = time.time()
    part = store.challenges
    a, _ = await known(store, now)
    for _ in range(rules.PER_HOUR):
        other, _ = await known(store, now)
        made = challenge(a, other, now)
        await part.make(made, now)
        await part.answer(made.id, hash_token(a), "withdraw", now)
    other, _ = await known(store, now)
    with pytest.raises(RelayError) as refused:
        await part.make(challenge(a, other, now + 10), now + 10)
    assert refused.value.code == "challenge/too_fast"
    assert refused.value.retry_after is not None and 3580 <= refused.value.retry_after <= 3600
    await part.make(challenge(a, other, now + 3601), now + 3601)


async def test_a_wait_ends_when_a_challenge_arrives(store: Store) -> None:
    now = time.time()
    (a, _), (b, b_id) = await known(store, now), await known(store, now)
    part = store.challenges
    version = (await part.listed(b_id, now)).version
    waiting = asyncio.ensure_future(part.wait(b_id, version, 5.0))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    await part.make(challenge(a, b, now), now)
    await asyncio.wait_for(waiting, 2.0)
    await asyncio.wait_for(part.wait(b_id, version, 5.0), 1.0)  # above it already: at once


async def test_follows_are_kept_newest_first_and_capped(store: Store) -> None:
    now = time.time()
    part = store.challenges
    me = "M" * 12
    assert await part.follows(me) == []
    assert [f.id for f in await part.follow(me, Followed("A" * 12, "Ann", now), 2)] == ["A" * 12]
    await part.follow(me, Followed("B" * 12, None, now + 1), 2)
    with pytest.raises(RelayError) as refused:
        await part.follow(me, Followed("C" * 12, None, now + 2), 2)
    assert refused.value.code == "follow/full"
    again = await part.follow(me, Followed("A" * 12, "Anna", now + 3), 2)
    assert [(f.id, f.name) for f in again] == [("A" * 12, "Anna"), ("B" * 12, None)]
    assert [f.id for f in await part.unfollow(me, "A" * 12)] == ["B" * 12]
    assert [f.id for f in await part.unfollow(me, "Z" * 12)] == ["B" * 12]


async def test_blocks_are_seen_either_way(store: Store) -> None:
    now = time.time()
    (a, _), (b, _) = await known(store, now), await known(store, now)
    ticket = await store.matches.seek("go", "", "r1", now, player=a)
    await store.matches.seek("go", "", "r1", now, player=b)
    await store.matches.poll(ticket.match, ticket.token, 0, now)
    assert not await store.challenges.blocked(hash_token(a), hash_token(b))
    await store.moderation.block(b, ticket.match, "block", now)
    assert await store.challenges.blocked(hash_token(a), hash_token(b))
    assert await store.challenges.blocked(hash_token(b), hash_token(a))


@pytest.mark.parametrize("rated", [False, True])
async def test_a_challenge_made_unrated_makes_a_match_never_rated(
    store: Store, rated: bool
) -> None:
    now = time.time()
    (a, _), (b, _) = await known(store, now), await known(store, now)
    made = challenge(a, b, now, rated=rated)
    await store.challenges.make(made, now)
    accepted = await store.challenges.answer(made.id, hash_token(b), "accept", now)
    assert accepted.match is not None
    await store.matches.act(accepted.match, a, Action("resign"), now + 1)
    await store.matches.reap(now + 5)
    assert (await store.matches.info(accepted.match)).rated is rated


async def test_a_version_never_goes_back(store: Store) -> None:
    now = time.time()
    (a, a_id), (b, b_id) = await known(store, now), await known(store, now)
    before = (await store.challenges.listed(b_id, now)).version
    await store.challenges.make(challenge(a, b, now), now)
    after = (await store.challenges.listed(b_id, now)).version
    assert after > before and after >= round(now * 1000)
    assert (await store.challenges.listed(a_id, now)).version >= round(now * 1000)


async def test_the_memory_store_sweeps_what_it_keeps_of_challenges() -> None:
    from relay import MemoryStore

    store = MemoryStore()
    part = store.challenges
    now = time.time()
    a, a_id = await known(store, now)
    await part.follow(a_id, Followed("F" * 12, None, now), rules.FOLLOWS_MOST)
    made = challenge(a, (await known(store, now))[0], now)
    await part.make(made, now)
    later = now + 4 * 86_400.0 * 365
    for _ in range(part.SWEEP_EVERY - 1):
        one, _ = await known(store, later)
        two, _ = await known(store, later)
        await part.make(challenge(one, two, later), later)
    assert made.id not in part._records
    assert a_id not in part._made and a_id not in part._versions and a_id not in part._follows


async def test_a_refused_challenge_is_not_counted_in_the_hour(store: Store) -> None:
    now = time.time()
    part = store.challenges
    (a, _), (b, _) = await known(store, now), await known(store, now)
    made = challenge(a, b, now)
    await part.make(made, now)
    for _ in range(rules.PER_HOUR + 5):
        with pytest.raises(RelayError) as refused:
            await part.make(challenge(a, b, now), now)
        assert refused.value.code == "challenge/open"
    await part.answer(made.id, hash_token(a), "withdraw", now)
    for _ in range(rules.PER_HOUR - 1):
        other, _ = await known(store, now)
        mine = challenge(a, other, now)
        await part.make(mine, now)
        await part.answer(mine.id, hash_token(a), "withdraw", now)
    other, _ = await known(store, now)
    with pytest.raises(RelayError) as refused:
        await part.make(challenge(a, other, now), now)
    assert refused.value.code == "challenge/too_fast"


async def test_an_accept_is_refused_while_either_key_has_its_most_matches_not_over(
    store: Store,
) -> None:
    # The match an accept makes counts toward each key's matches not over, as a seek's does:
    # a key with LISTED of them is refused, and the challenge stays open.
    now = time.time()
    (a, _), (b, b_id), (c, _) = [await known(store, now) for _ in range(3)]
    part = store.challenges
    for index in range(LISTED):
        await store.matches.seek(f"busy{index}", "1", None, now, None, None, a)
    to_b = challenge(a, b, now)
    await part.make(to_b, now)
    with pytest.raises(RelayError) as refused:
        await part.answer(to_b.id, hash_token(b), "accept", now + 1)
    assert refused.value.code == "player/too_many"
    assert [x.state for x in (await part.listed(b_id, now + 1)).incoming] == ["open"]
    # Declining is no new match: it is answered.
    assert (await part.answer(to_b.id, hash_token(b), "decline", now + 2)).state == "declined"
    # The accepting key's own matches count the same.
    from_a = challenge(c, a, now)
    await part.make(from_a, now)
    with pytest.raises(RelayError) as refused:
        await part.answer(from_a.id, hash_token(a), "accept", now + 3)
    assert refused.value.code == "player/too_many"

"""Moderation in each store (memory, Redis, Redis Cluster), driven through Store.moderation:
bans of ids and address ranges, reports, blocks that keep two keys apart in pairing, a
voided rating restored exactly (or its points given back), and an erased name and chat
(docs/fair-play.md#moderation)."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest

from relay import RelayError, Store
from relay.core.model import Action, hash_token
from relay.core.moderation import Ban
from relay.core.standings import public_id
from relay.core.text_policy import skeletons
from tests.relay.store.calls import start


def key() -> str:
    """Returns a fresh player key."""
    return secrets.token_urlsafe(32)


def pid(player: str) -> str:
    """Returns a player key's public id."""
    return public_id(hash_token(player))


async def paired(
    store: Store, first_key: str, second_key: str, **names: str
) -> tuple[str, str, str]:
    """Pairs two keys in a game, the match started (seat 0 polls again); returns the match
    and both seat tokens (one's first)."""
    now = time.time()
    first = await store.matches.seek("g", "", None, now, player=first_key, name=names.get("one"))
    second = await store.matches.seek(
        "g", "", None, now, player=second_key, name=names.get("other")
    )
    assert second.match == first.match
    await start(store, first, at=now)
    return first.match, first.token, second.token


async def test_a_ban_covers_its_id_or_its_range_until_it_ends_or_is_lifted(store: Store) -> None:
    moderation, now = store.moderation, time.time()
    await moderation.ban(Ban("id:AAAAAAAAAAAA", now + 60, "farming", now))
    await moderation.ban(Ban("203.0.113.0/24", now + 30, "flood", now))
    await moderation.ban(Ban("id:BBBBBBBBBBBB", now - 1, "over", now - 10))
    assert [ban.target for ban in await moderation.bans(now)] == [
        "203.0.113.0/24", "id:AAAAAAAAAAAA",
    ]  # fmt: skip
    found = await moderation.banned(("AAAAAAAAAAAA",), "198.51.100.7", now)
    assert found is not None and found.reason == "farming"
    found = await moderation.banned(("CCCCCCCCCCCC",), "203.0.113.9", now)
    assert found is not None and found.target == "203.0.113.0/24"
    assert await moderation.banned(("BBBBBBBBBBBB",), "198.51.100.7", now) is None
    assert await moderation.banned((), "2001:db8::1", now) is None
    assert await moderation.banned(("AAAAAAAAAAAA",), None, now + 61) is None  # ended
    assert await moderation.unban("id:AAAAAAAAAAAA")
    assert not await moderation.unban("id:AAAAAAAAAAAA")
    assert await moderation.banned(("AAAAAAAAAAAA",), None, now) is None


async def test_a_seat_reports_its_partner_once_with_its_name_and_last_lines(store: Store) -> None:
    ann, bob = key(), key()
    match, ann_token, bob_token = await paired(store, ann, bob, one="Ann", other="Bob")
    now = time.time()
    await store.tables.chat(match, bob_token, "you are bad", now)
    await store.tables.chat(match, ann_token, "gg", now)
    admitted: list[str] = []
    admit = lambda: admitted.append("new")  # noqa: E731
    filed = await store.moderation.report(match, ann_token, "chat", "rude", now, admit)
    again = await store.moderation.report(match, ann, "chat", "rude again", now + 1, admit)
    assert again.n == filed.n  # the same seat (by its player key too), the same thing
    other = await store.moderation.report(match, bob_token, "name", "", now + 2, admit)
    assert admitted == ["new", "new"]  # a report sent again is not counted
    assert other.n != filed.n
    newest, oldest = await store.moderation.reports(10, now + 3)
    assert (newest.n, oldest.n) == (other.n, filed.n)
    assert oldest.reporter == pid(ann) and oldest.reported == pid(bob)
    assert (oldest.name, oldest.chat, oldest.text, oldest.game) == (
        "Bob", ("you are bad",), "rude", "g",
    )  # fmt: skip
    assert newest.reported == pid(ann) and newest.name == "Ann" and newest.chat == ("gg",)
    with pytest.raises(RelayError) as refused:
        await store.moderation.report(match, "x" * 43, "play", "", now, admit)
    assert refused.value.code == "auth/bad_token"
    assert admitted == ["new", "new"]


async def test_a_blocked_key_is_never_paired_with_its_blocker(store: Store) -> None:
    ann, bob, cid = key(), key(), key()
    match, ann_token, _ = await paired(store, ann, bob, one="Ann", other="Bob")
    now = time.time()
    await store.matches.act(match, ann_token, Action("resign"), now)
    blocks = await store.moderation.block(ann, match, "block", now)
    assert [(entry.id, entry.name, entry.kind) for entry in blocks] == [(pid(bob), "Bob", "block")]
    # Either one seeking first: the other is not paired with it, but with the next key.
    for first, second in ((ann, bob), (bob, ann)):
        one = await store.matches.seek("g", "", None, now, player=first)
        two = await store.matches.seek("g", "", None, now, player=second)
        assert two.match != one.match and one.seat == 0 and two.seat == 0
        three = await store.matches.seek("g", "", None, now, player=cid)
        assert three.match == one.match and three.seat == 1
        await start(store, one, at=now)
        await store.matches.act(two.match, two.token, Action("cancel"), now)
        await store.matches.act(one.match, one.token, Action("resign"), now)
    with pytest.raises(RelayError) as refused:
        waiting = await store.matches.seek("g", "", "den", now, player=ann)
        await store.matches.seek("g", "", "den", now, player=bob)
    assert refused.value.code == "room/blocked"
    await store.matches.act(waiting.match, waiting.token, Action("cancel"), now)
    # A mute only hides the chat: the keys are paired again; lifting it leaves no entry.
    assert [e.kind for e in await store.moderation.block(ann, match, "mute", now)] == ["mute"]
    again = await paired(store, ann, bob)
    assert await store.moderation.unblock(ann, pid(bob)) == []
    assert await store.moderation.blocks(ann) == []
    with pytest.raises(RelayError) as refused:
        await store.moderation.block(cid, again[0], "block", now)
    assert refused.value.code == "player/not_seated"


async def test_a_partner_without_a_key_cannot_be_blocked(store: Store) -> None:
    ann, now = key(), time.time()
    first = await store.matches.seek("g", "", None, now, player=ann)
    await store.matches.seek("g", "", None, now)
    with pytest.raises(RelayError) as refused:
        await store.moderation.block(ann, first.match, "block", now)
    assert refused.value.code == "block/no_key"


async def ratings_of(store: Store, player: str) -> dict[str, Any] | None:
    """Returns the key's rating in 'g' as GET /v1/player/ratings answers it (None: none)."""
    found = await store.players.ratings(player, "g", time.time())
    return found[0] if found else None


async def resign(store: Store, loser: str, winner: str) -> str:
    """Plays a rated match the loser resigns; returns its id."""
    match, token, _ = await paired(store, loser, winner)
    await store.matches.act(match, token, Action("resign"), time.time())
    await store.matches.reap(time.time())  # a Redis rating left pending is settled
    assert (await store.matches.info(match)).rated is True
    return match


async def test_a_voided_rating_is_restored_exactly_for_both_seats(store: Store) -> None:
    ann, bob = key(), key()
    await resign(store, ann, bob)
    before = (await ratings_of(store, ann), await ratings_of(store, bob))
    farmed = await resign(store, ann, bob)
    voided = await store.moderation.void(farmed, None, time.time())
    assert voided.state == "voided" and voided.game == "g"
    assert [(seat.id, seat.exact) for seat in voided.seats] == [(pid(ann), True), (pid(bob), True)]
    after = (await ratings_of(store, ann), await ratings_of(store, bob))
    for was, now in zip(before, after, strict=True):
        assert was is not None and now is not None
        assert {k: v for k, v in now.items() if k != "deviation"} == {
            k: v for k, v in was.items() if k != "deviation"
        }
    assert (await store.matches.info(farmed)).rated == "voided"
    assert (await store.moderation.void(farmed, None, time.time())).state == "already"


async def test_a_voided_first_game_leaves_no_rating(store: Store) -> None:
    ann, bob = key(), key()
    match = await resign(store, ann, bob)
    await store.moderation.void(match, None, time.time())
    assert await ratings_of(store, ann) is None and await ratings_of(store, bob) is None


async def test_a_void_after_later_games_gives_the_points_back(store: Store) -> None:
    ann, bob, cid = key(), key(), key()
    farmed = await resign(store, ann, bob)
    won = await ratings_of(store, bob)
    assert won is not None
    (history,) = won["history"]
    gained = history["after"] - history["before"]
    await resign(store, cid, bob)  # bob is rated again since
    current = await ratings_of(store, bob)
    assert current is not None
    voided = await store.moderation.void(farmed, "g", time.time())
    bob_seat = next(seat for seat in voided.seats if seat.id == pid(bob))
    assert not bob_seat.exact
    assert bob_seat.now == pytest.approx(current["rating"] - gained, abs=0.11)
    now = await ratings_of(store, bob)
    assert now is not None and now["games"] == 1
    assert farmed not in [entry["match"] for entry in now["history"]]
    assert (await store.moderation.void("no-such-match", "g", time.time())).state == "not_rated"


async def test_an_erased_key_loses_its_name_and_chat_and_its_look_is_withheld(
    store: Store,
) -> None:
    ann, bob = key(), key()
    assert await store.players.claim_name(skeletons("Spammer"), bob, time.time())
    match, ann_token, bob_token = await paired(store, ann, bob, one="Ann", other="Spammer")
    now = time.time()
    await store.tables.chat(match, bob_token, "buy gold", now)
    await store.tables.chat(match, ann_token, "no", now)
    await store.tables.chat(match, bob_token, "buy more gold", now + 1)
    erased = await store.moderation.erase(pid(bob), now + 2)
    assert (erased.matches, erased.lines) == (1, 2)
    _, table = await store.tables.read(match, ann_token, 0, now + 3)
    assert table.names == ("Ann", None)
    assert [(line.n, line.seat, line.text) for line in table.chat] == [
        (1, 1, ""), (2, 0, "no"), (3, 1, ""),
    ]  # fmt: skip
    assert not await store.players.claim_name(skeletons("Spammer"), bob, now + 4)
    assert not await store.players.claim_name(skeletons("Spammer"), key(), now + 4)
    unknown = await store.moderation.erase("ZZZZZZZZZZZZ", now)
    assert (unknown.matches, unknown.lines, unknown.ratings) == (0, 0, 0)


async def test_blocks_and_bans_are_bounded(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from relay.store.memory import moderation as memory
    from relay.store.redis import moderation as redis

    for module in (memory, redis):
        monkeypatch.setattr(module, "BLOCKS_KEPT", 1)
        monkeypatch.setattr(module, "BANS_KEPT", 2)
    ann, bob, cid = key(), key(), key()
    first = await paired(store, ann, bob)
    second = await paired(store, ann, cid)
    now = time.time()
    await store.moderation.block(ann, first[0], "block", now)
    await store.moderation.block(ann, first[0], "mute", now)  # the same key again: replaced
    with pytest.raises(RelayError) as refused:
        await store.moderation.block(ann, second[0], "block", now)
    assert refused.value.code == "block/full"
    for target in ("id:AAAAAAAAAAAA", "id:BBBBBBBBBBBB", "id:AAAAAAAAAAAA"):
        await store.moderation.ban(Ban(target, now + 60, "", now))  # the same target: replaced
    with pytest.raises(RelayError) as refused:
        await store.moderation.ban(Ban("id:CCCCCCCCCCCC", now + 60, "", now))
    assert refused.value.code == "admin/too_many"
    await store.moderation.ban(Ban("id:BBBBBBBBBBBB", now + 1, "", now))
    # A ban that ended makes room.
    await store.moderation.ban(Ban("id:CCCCCCCCCCCC", now + 60, "", now + 2))


async def test_a_keys_blocks_are_kept_a_year_after_its_last(store: Store) -> None:
    from relay.core.moderation import BLOCKS_DAYS
    from relay.store.memory.store import MemoryStore
    from relay.store.redis.store import RedisStore

    ann, bob = key(), key()
    match, _, _ = await paired(store, ann, bob)
    await store.moderation.block(ann, match, "block", time.time())
    if isinstance(store, RedisStore):
        client = await store.link.client()
        ttl = await client.ttl(f"{store.prefix}{{p:{hash_token(ann)}}}blocks")
        assert BLOCKS_DAYS * 86_400 - 60 < ttl <= BLOCKS_DAYS * 86_400
    else:
        assert isinstance(store, MemoryStore)
        store.moderation.sweep(time.time() + (BLOCKS_DAYS - 1) * 86_400)
        assert len(await store.moderation.blocks(ann)) == 1
        store.moderation.sweep(time.time() + (BLOCKS_DAYS + 1) * 86_400)
        assert await store.moderation.blocks(ann) == []

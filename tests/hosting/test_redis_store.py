"""The Redis store: exactly the memory store's behaviour, and safe with many relay processes."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable
from typing import Any

import orjson
import pytest
import redis.asyncio as aioredis

from relay.config import Config
from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.events import move_event, pass_event, started_event
from relay.core.model import Action, ActionKind, Status, StoreSettings, Ticket, hash_token
from relay.store.memory.store import MemoryStore
from relay.store.open import open_store
from relay.store.redis.keys import Layout
from relay.store.redis.store import RedisStore
from tests.hosting.conftest import SETTINGS, StoreMaker
from tests.relay.store.calls import start
from tests.support.components import require_binary
from tests.support.redis_server import RedisServer, redis_binary, until_subscribers
from tests.support.waits import waited

ROOMY = StoreSettings(grace=10.0, keep=100.0, max_waiting=1000)
"""Settings for tests that open many matches at once."""

TEXTS = [
    "",
    "11",
    'say "hi"\n\\',
    "\U0001f600 ünïcödé \u2028 \U00010348",
    '{"json": [1, {"a": null}]}',
    "<b>&amp;</b>\t\r\x00\x1f",
    "x" * 300,
]
"""Move texts that must travel byte-exact."""

CONTROLS = [None, None, TimeControl("fischer", 10, 1), TimeControl("deadline", 10)]
"""The time controls the differential seeks with: none, mostly."""

KINDS: list[ActionKind] = [
    *(["move"] * 10),  # type: ignore[list-item]
    "pass",
    "pass",
    "confirm",
    "confirm",
    "confirm",
    "resign",
    "cancel",
]
"""Actions the differential test draws from, moves most often."""


async def outcome(call: Awaitable[Any]) -> tuple[Any, ...]:
    """Returns ('ok', result) or ('error', code, status, message, retry_after)."""
    try:
        return ("ok", await call)
    except RelayError as error:
        return ("error", error.code, error.status, error.message, error.retry_after)


class Differential:
    """Runs the same random calls against a memory store and a Redis store, and compares.

    A pairing starts play as a live client does: seat 0 polls again. Mostly at once (the seek
    that takes seat 1 is followed by that poll); else later, perhaps past the pair window; or
    never (a ghost: only the random polls may still start it), and the reaper expires it."""

    def __init__(self, memory: MemoryStore, redis: RedisStore, seed: int) -> None:
        self.memory = memory
        self.redis = redis
        self.rng = random.Random(seed)
        self.tickets: list[tuple[Ticket, Ticket]] = []
        self.ids: dict[str, str] = {}
        self.now = time.time()
        self.log: list[str] = []
        self.seats0: dict[str, tuple[Ticket, Ticket]] = {}
        """Seat 0's tickets, by the memory store's match id."""
        self.seeks: dict[str, tuple[str, str, str | None, TimeControl | None]] = {}
        """The seek (game, version, room, control) that opened each match, by its id."""
        self.paired: set[str] = set()
        """The matches whose seat 1 was taken."""
        self.slow: list[tuple[tuple[Ticket, Ticket], float]] = []
        """Seat 0's tickets of the pairings whose seat 0 polls again later, and when each was
        paired."""
        self.ghosts: list[tuple[Ticket, Ticket]] = []
        """Seat 0's tickets of the pairings whose seat 0 never polls again on purpose."""
        self.seen: Counter[str] = Counter()
        """What the pairings went through (the statuses around seat 0's poll, the reaper's
        expiries), so that a test can check the run reached each path."""

    def same(self, mine: tuple[Any, ...], theirs: tuple[Any, ...]) -> None:
        """Asserts both stores answered alike (Redis match ids read as the memory ones)."""
        text = repr(theirs)
        for memory_id, redis_id in self.ids.items():
            text = text.replace(redis_id, memory_id)
        assert repr(mine) == text, "\n".join(self.log[-15:])

    async def step(self) -> None:
        """Makes one random call on both stores."""
        rng = self.rng
        if rng.random() < 0.15:
            self.now += rng.choice([0.5, 3.0, 9.0, 11.0, 60.0, 101.0])
        choice = rng.random()
        if choice < 0.2 or not self.tickets:
            await self.seek()
        elif choice < 0.4:
            if self.slow and rng.random() < 0.6:
                waiting, paired = self.slow.pop(rng.randrange(len(self.slow)))
                lapsed = self.now - paired > SETTINGS.pair_window
                await self.start(waiting, "past the window" if lapsed else "late")
            else:
                await self.poll()
        elif choice < 0.85:
            await self.act()
        elif choice < 0.9:
            pair = rng.choice(self.tickets)
            self.log.append(f"info {pair[0].match}")
            self.same(
                await outcome(self.memory.matches.info(pair[0].match)),
                await outcome(self.redis.matches.info(pair[1].match)),
            )
        elif choice < 0.95:
            self.log.append(f"reap {self.now}")
            unstarted = [waiting for waiting, _ in self.slow] + self.ghosts
            before = [await self.status(mine.match) for mine, _ in unstarted]
            self.same(
                await outcome(self.memory.matches.reap(self.now)),
                await outcome(self.redis.matches.reap(self.now)),
            )
            for was, (mine, _) in zip(before, unstarted, strict=True):
                if was == Status.WAITING.value:
                    self.seen[f"reap: waiting->{await self.status(mine.match)}"] += 1
            self.same((await self.memory.matches.counts(),), (await self.redis.matches.counts(),))
        else:
            pair = rng.choice(self.tickets)
            after = rng.randint(0, 4)
            self.log.append(f"wait {pair[0].match} {after}")
            self.same(
                await outcome(waited(self.memory, pair[0].match, after, 0)),
                await outcome(waited(self.redis, pair[1].match, after, 0)),
            )

    async def seek(self) -> None:
        rng = self.rng
        game = rng.choice(["g", "h"])
        version = rng.choice(["1", "2"])
        room = rng.choice([None, None, None, "r1", "r2"])
        control = rng.choice(CONTROLS)
        # Half the time, a seek like one still waiting alone: pairings are frequent.
        alone = [match for match in self.seats0 if await self.alone(match)]
        if alone and rng.random() < 0.5:
            game, version, room, control = self.seeks[rng.choice(alone)]
        coin = rng.randrange(2)
        self.log.append(f"seek {game} {version} {room} {control} coin={coin} at {self.now}")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("relay.core.model.draw_first", lambda: coin)
            mine = await outcome(
                self.memory.matches.seek(game, version, room, self.now, None, control)
            )
            theirs = await outcome(
                self.redis.matches.seek(game, version, room, self.now, None, control)
            )
        assert mine[0] == theirs[0], (mine, theirs, self.log[-15:])
        if mine[0] == "error":
            self.same(mine, theirs)
            return
        m, r = mine[1], theirs[1]
        assert m.seat == r.seat
        if m.match in self.ids:
            assert self.ids[m.match] == r.match
        else:
            assert r.match not in self.ids.values()
            self.ids[m.match] = r.match
        self.tickets.append((m, r))
        if m.seat == 0:
            self.seats0[m.match] = (m, r)
            self.seeks[m.match] = (game, version, room, control)
            return
        self.paired.add(m.match)
        waiting, live = self.seats0[m.match], rng.random()
        if live < 0.6:
            await self.start(waiting, "at once")
        elif live < 0.8:
            self.slow.append((waiting, self.now))
        else:
            self.ghosts.append(waiting)

    async def alone(self, match: str) -> bool:
        """Whether the match waits with seat 1 free (as the memory store tells)."""
        if match in self.paired:
            return False
        info = await outcome(self.memory.matches.info(match))
        return info[0] == "ok" and info[1].status is Status.WAITING

    async def start(self, waiting: tuple[Ticket, Ticket], when: str) -> None:
        """Seat 0 of a paired match polls again with its own token, as a live seeker does:
        the poll that starts play, unless the pairing lapsed or play started already."""
        mine, theirs = waiting
        before = await self.status(mine.match)
        self.log.append(f"start {mine.match} ({when}, {before}) at {self.now}")
        self.same(
            await outcome(self.memory.matches.poll(mine.match, mine.token, 0, self.now)),
            await outcome(self.redis.matches.poll(theirs.match, theirs.token, 0, self.now)),
        )
        self.seen[f"start {when}: {before}->{await self.status(mine.match)}"] += 1

    async def status(self, match: str) -> str:
        """Returns the status of the match (by its memory store id), or the code its summary
        is refused with; both stores' summaries compared."""
        mine = await outcome(self.memory.matches.info(match))
        self.same(mine, await outcome(self.redis.matches.info(self.ids[match])))
        return str(mine[1].status.value) if mine[0] == "ok" else str(mine[1])

    def token(self, pair: tuple[Ticket, Ticket]) -> tuple[str | None, str | None]:
        kind = self.rng.choice(["own", "own", "own", "spectator", "other", "forged"])
        if kind == "spectator":
            return None, None
        if kind == "other":
            other = self.rng.choice(self.tickets)
            return other[0].token, other[1].token
        if kind == "forged":
            return "forged", "forged"
        return pair[0].token, pair[1].token

    async def poll(self) -> None:
        pair = self.rng.choice(self.tickets)
        mine_token, their_token = self.token(pair)
        after = self.rng.randint(0, 6)
        self.log.append(f"poll {pair[0].match} after={after} token={mine_token is not None}")
        self.same(
            await outcome(self.memory.matches.poll(pair[0].match, mine_token, after, self.now)),
            await outcome(self.redis.matches.poll(pair[1].match, their_token, after, self.now)),
        )

    async def act(self) -> None:
        rng = self.rng
        pair = rng.choice(self.tickets)
        mine_token, their_token = self.token(pair)
        if mine_token is None:
            mine_token, their_token = pair[0].token, pair[1].token
        assert their_token is not None
        last = 0
        with_info = await outcome(self.memory.matches.info(pair[0].match))
        if with_info[0] == "ok":
            last = with_info[1].last
        kind = rng.choice(KINDS)
        after = rng.choice([last, last, last, last, last - 1, last + 1, 0, rng.randint(0, 9)])
        action = Action(
            kind,
            after if after >= 0 else None,
            rng.choice(TEXTS),
            rng.random() < 0.2,
            rng.random() < 0.7,
        )
        self.log.append(f"act {pair[0].match} {action!r} at {self.now}")
        self.same(
            await outcome(self.memory.matches.act(pair[0].match, mine_token, action, self.now)),
            await outcome(self.redis.matches.act(pair[1].match, their_token, action, self.now)),
        )


@pytest.mark.parametrize("seed", range(6))
async def test_redis_store_answers_exactly_like_the_memory_store(
    make_store: StoreMaker, seed: int
) -> None:
    differential = Differential(MemoryStore(SETTINGS), make_store(), seed)
    async with asyncio.timeout(60):
        for _ in range(500):
            await differential.step()
    # The run went through the pairing rule: play started by seat 0's poll again, at once and
    # later, and pairings whose seat 0 never polled again expired by the reaper.
    seen = differential.seen
    assert seen["start at once: waiting->playing"], seen
    late = ("late", "past the window")
    assert sum(seen[f"start {when}: waiting->playing"] for when in late), seen
    assert seen["reap: waiting->match/expired"], seen
    # Every match, read in full by a spectator, is byte-identical.
    for mine, theirs in differential.tickets:
        differential.same(
            await outcome(differential.memory.matches.poll(mine.match, None, 0, differential.now)),
            await outcome(differential.redis.matches.poll(theirs.match, None, 0, differential.now)),
        )


async def test_move_events_are_byte_identical_to_the_builders(make_store: StoreMaker) -> None:
    store = make_store()
    a = await store.matches.seek("bytes", "1", None, time.time())
    b = await store.matches.seek("bytes", "1", None, time.time())
    await start(store, a)
    first = orjson.loads((await store.matches.poll(a.match, None, 0, time.time()))[1][0])["first"]
    seats = (a, b) if first == 0 else (b, a)
    for index, text in enumerate(TEXTS):
        seat = seats[index % 2]
        await store.matches.act(
            seat.match, seat.token, Action("move", index + 1, text), time.time()
        )
    _, events = await store.matches.poll(a.match, None, 1, time.time())
    expected = [
        move_event(index + 2, seats[index % 2].seat, text, False)
        for index, text in enumerate(TEXTS)
    ]
    assert events == expected


async def test_tokens_are_kept_only_as_digests(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    a = await store.matches.seek("secret", "1", None, time.time())
    b = await store.matches.seek("secret", "1", None, time.time())
    await start(store, a)
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        dump = []
        async for key in client.scan_iter(match=f"{store.prefix}*"):
            kind = (await client.type(key)).decode()  # type: ignore[union-attr, unused-ignore]
            if kind == "hash":
                dump.append(repr(await client.hgetall(key)))
            elif kind == "list":
                dump.append(repr(await client.lrange(key, 0, -1)))
            elif kind == "zset":
                dump.append(repr(await client.zrange(key, 0, -1)))
            else:
                dump.append(repr(await client.get(key)))
    finally:
        await client.aclose()
    everything = "\n".join(dump)
    for ticket in (a, b):
        assert ticket.token not in everything
        assert hash_token(ticket.token) in everything


async def test_two_processes_never_pair_one_seeker_twice(make_store: StoreMaker) -> None:
    stores = [make_store(settings=ROOMY), make_store(settings=ROOMY)]
    now = time.time()
    async with asyncio.timeout(30):
        tickets = await asyncio.gather(
            *(stores[index % 2].matches.seek("race", "1", None, now) for index in range(120))
        )
    seats: dict[str, list[int]] = {}
    for ticket in tickets:
        seats.setdefault(ticket.match, []).append(ticket.seat)
    assert sorted(sorted(found) for found in seats.values()) == [[0, 1]] * 60
    assert len({ticket.token for ticket in tickets}) == 120


async def test_two_processes_never_accept_two_moves_for_one_turn(make_store: StoreMaker) -> None:
    stores = [make_store(), make_store()]
    a = await stores[0].matches.seek("turns", "1", None, time.time())
    b = await stores[1].matches.seek("turns", "1", None, time.time())
    await start(stores[0], a)
    first = orjson.loads((await stores[0].matches.poll(a.match, None, 0, time.time()))[1][0])[
        "first"
    ]
    mover = a if first == 0 else b
    partner = b if first == 0 else a
    async with asyncio.timeout(30):
        for turn in range(1, 21):
            seat = mover if turn % 2 else partner
            action = [Action("move", turn, f"{turn}.{i}") for i in range(8)]
            results = await asyncio.gather(
                *(
                    outcome(
                        stores[i % 2].matches.act(seat.match, seat.token, action[i], time.time())
                    )
                    for i in range(8)
                )
            )
            accepted = [result for result in results if result == ("ok", turn + 1)]
            refused = [result for result in results if result[0] == "error"]
            assert len(accepted) == 1 and len(refused) == 7
            assert {result[1] for result in refused} == {"turn/stale"}
    events = [
        orjson.loads(event) for event in (await stores[1].matches.poll(a.match, None, 0, 0))[1]
    ]
    assert [event["seq"] for event in events] == list(range(1, 22))


async def test_a_poll_held_in_one_process_wakes_on_a_move_in_another(
    make_store: StoreMaker,
) -> None:
    one, other = make_store(), make_store()
    a = await one.matches.seek("wake", "1", None, time.time())
    b = await other.matches.seek("wake", "1", None, time.time())
    await start(one, a)
    first = orjson.loads((await one.matches.poll(a.match, None, 0, time.time()))[1][0])["first"]
    mover = a if first == 0 else b
    waiter = asyncio.create_task(waited(one, a.match, 1, 20))
    await asyncio.sleep(0.2)
    assert not waiter.done()
    sent = time.monotonic()
    await other.matches.act(mover.match, mover.token, Action("move", 1, "hello"), time.time())
    async with asyncio.timeout(3):
        events = await waiter
    assert time.monotonic() - sent < 0.5
    assert orjson.loads(events[0])["move"] == "hello"


async def test_a_lost_notification_only_delays_the_event(
    make_store: StoreMaker, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = make_store()
    # This process never hears a notification: its listener's Redis is not there.
    deaf = RedisStore(
        aioredis.Redis.from_url(redis_server.url),
        SETTINGS,
        listener=aioredis.Redis.from_url("redis://127.0.0.1:9/0", socket_connect_timeout=0.2),
        prefix=writer.prefix,
        recheck=0.5,
    )
    read = asyncio.Event()
    link = deaf.matches.link
    run = link.on_match

    async def reading(name: str, match: str, now: float, *rest: object) -> Any:
        answer = await run(name, match, now, *rest)
        if name == "POLL":
            read.set()
        return answer

    monkeypatch.setattr(link, "on_match", reading)
    try:
        a = await writer.matches.seek("deaf", "1", None, time.time())
        waiter = asyncio.create_task(waited(deaf, a.match, 0, 20))
        async with asyncio.timeout(3):
            await read.wait()  # the wait read the log: the seeker still waits alone
        b = await writer.matches.seek("deaf", "1", None, time.time())
        # The pairing's notice is lost: a later read finds the pairing and answers the wait
        # empty, so that seat 0 polls again.
        async with asyncio.timeout(3):
            assert await waiter == []
        partner = asyncio.create_task(waited(deaf, b.match, 0, 20))
        await asyncio.sleep(0.1)
        await start(writer, a)  # seat 0 polls again: the start, whose notice deaf never hears
        async with asyncio.timeout(3):
            events = await partner
        assert orjson.loads(events[0])["type"] == "started"
    finally:
        await deaf.close()


async def test_reaping_in_every_process_changes_each_match_once(make_store: StoreMaker) -> None:
    stores = [make_store(settings=ROOMY) for _ in range(3)]
    t = time.time()
    matches = []
    for index in range(30):
        a = await stores[0].matches.seek("reap", "1", None, t)
        await stores[1].matches.seek("reap", "1", None, t)
        await start(stores[0], a, at=t)
        matches.append(a.match)
        await stores[2].matches.seek("reap-alone", str(index), None, t)
    async with asyncio.timeout(30):
        changed = await asyncio.gather(
            *(store.matches.reap(t + ROOMY.grace + 1) for store in stores)
        )
    assert sum(changed) == 60
    for match in matches:
        events = [orjson.loads(e) for e in (await stores[0].matches.poll(match, None, 0, t))[1]]
        assert [event["type"] for event in events] == ["started", "ended"]
        assert events[1]["reason"] == "abandoned"
    counts = await stores[0].matches.counts()
    assert (counts[Status.FINISHED], counts[Status.EXPIRED], counts[Status.WAITING]) == (30, 30, 0)
    later = t + ROOMY.grace + ROOMY.keep + 2
    assert sum(await asyncio.gather(*(store.matches.reap(later) for store in stores))) == 60
    assert await stores[0].matches.counts() == dict.fromkeys(Status, 0)


async def test_forgotten_matches_leave_no_keys_behind(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    t = time.time()
    a = await store.matches.seek("tidy", "1", "room", t)
    b = await store.matches.seek("tidy", "1", "room", t)
    await start(store, a, at=t)
    await store.matches.act(b.match, b.token, Action("resign"), t)
    await store.matches.seek("tidy", "1", None, t)
    lone = await store.matches.seek("tidy", "2", None, t)
    await store.matches.act(lone.match, lone.token, Action("cancel"), t)
    assert await store.matches.reap(t + SETTINGS.grace + 1) == 1  # the silent seeker is dropped
    assert await store.matches.reap(t + SETTINGS.grace + SETTINGS.keep + 5) == 3
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        left = sorted([key.decode() async for key in client.scan_iter(match=f"{store.prefix}*")])
    finally:
        await client.aclose()
    # Only the shards' status counts stay (a count per shard that held a match).
    shards = [key[len(store.prefix) :] for key in left]
    assert shards and all(re.fullmatch(r"\{s\d+\}counts", key) for key in shards), left
    await _expect(store.matches.info(a.match), "match/unknown")


async def _expect(call: Awaitable[Any], code: str) -> RelayError:
    with pytest.raises(RelayError) as caught:
        await call
    assert caught.value.code == code
    return caught.value


async def test_unreachable_redis_is_503_and_the_store_recovers_by_itself(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    a = await store.matches.seek("outage", "1", None, time.time())
    b = await store.matches.seek("outage", "1", None, time.time())
    await start(store, a)
    redis_server.stop()
    started = time.monotonic()
    calls: list[Awaitable[Any]] = [
        store.matches.poll(a.match, a.token, 0, time.time()),
        waited(store, a.match, 1, 5),
        store.matches.act(b.match, b.token, Action("resign"), time.time()),
        store.matches.seek("outage", "1", None, time.time()),
        store.matches.info(a.match),
        store.matches.counts(),
        store.matches.reap(time.time()),
    ]
    for call in calls:
        error = await _expect(call, "server/unavailable")
        assert error.status == 503 and error.retry_after is not None
        assert "Redis" in error.message
    assert time.monotonic() - started < 10
    redis_server.start()
    seat, events = await store.matches.poll(a.match, a.token, 0, time.time())
    assert seat == 0 and len(events) == 1
    assert await store.matches.act(b.match, b.token, Action("resign"), time.time()) == 2


async def test_a_held_poll_hears_of_moves_after_redis_restarts(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    one, other = make_store(recheck=30.0), make_store()
    a = await one.matches.seek("restart", "1", None, time.time())
    b = await other.matches.seek("restart", "1", None, time.time())
    await start(one, a)
    first = orjson.loads((await one.matches.poll(a.match, None, 0, time.time()))[1][0])["first"]
    mover = a if first == 0 else b
    waiter = asyncio.create_task(waited(one, a.match, 1, 20))
    await asyncio.sleep(0.2)
    redis_server.restart()
    async with asyncio.timeout(10):
        await asyncio.sleep(1.0)  # the listener resubscribes
        await other.matches.act(mover.match, mover.token, Action("move", 1, "after"), time.time())
        events = await _settle(one, waiter, a.match)
    assert [orjson.loads(event)["move"] for event in events] == ["after"]


async def _settle(store: RedisStore, waiter: asyncio.Task[list[bytes]], match: str) -> list[bytes]:
    """Returns the waiter's events; if Redis cut it, waits again as a client would."""
    try:
        return await waiter
    except RelayError as error:
        assert error.code == "server/unavailable"
        return await waited(store, match, 1, 5)


async def test_open_store_reads_redis_and_unix_urls(redis_server: RedisServer) -> None:
    tickets = []
    for url in (redis_server.url, redis_server.unix_url):
        store = open_store(url, StoreSettings())
        assert isinstance(store, RedisStore)
        try:
            tickets.append(await store.matches.seek("urls", "1", None, time.time()))
        finally:
            await store.close()
    # Both URLs reach the same Redis: the second seeker joins the first.
    assert tickets[0].match == tickets[1].match
    assert [ticket.seat for ticket in tickets] == [0, 1]
    assert isinstance(open_store(Config().store_url, StoreSettings()), MemoryStore)
    with pytest.raises(ValueError, match="unknown store 'mongodb://:\\*\\*\\*@host/0'"):
        open_store("mongodb://:pw@host/0", StoreSettings())


async def test_clocked_events_are_byte_identical_to_the_builders(make_store: StoreMaker) -> None:
    store = make_store()
    control = TimeControl("fischer", 60, 2)
    t = float(int(time.time()))
    a = await store.matches.seek("clock-bytes", "1", None, t, None, control)
    b = await store.matches.seek("clock-bytes", "1", None, t, None, control)
    await start(store, a, at=t)
    first = orjson.loads((await store.matches.poll(a.match, None, 0, t))[1][0])["first"]
    x, o = (a, b) if first == 0 else (b, a)
    await store.matches.act(x.match, x.token, Action("move", 1, "e4"), t + 1.25)
    await store.matches.act(o.match, o.token, Action("pass", 2), t + 61)
    _, events = await store.matches.poll(a.match, None, 0, t + 62)
    assert events == [
        started_event(1, first, control),
        move_event(2, x.seat, "e4", False, 60750),
        pass_event(3, o.seat, 2250),
    ]


async def test_a_store_over_tls_relays_moves_and_reconnects_by_itself() -> None:
    """rediss://: the script calls and the notices go over TLS, and after Redis drops the
    connections the store opens new ones over TLS by itself."""
    openssl = require_binary("openssl", "openssl")
    with RedisServer(redis_binary(), openssl=openssl) as server:
        one = open_store(server.tls_url, StoreSettings())
        other = open_store(server.tls_url, StoreSettings())
        assert isinstance(one, RedisStore) and isinstance(other, RedisStore)
        try:
            a = await one.matches.seek("tls", "1", None, time.time())
            b = await other.matches.seek("tls", "1", None, time.time())
            await start(one, a)
            first = orjson.loads((await one.matches.poll(a.match, None, 0, time.time()))[1][0])[
                "first"
            ]
            mover, waiting = (a, b) if first == 0 else (b, a)
            waiting_store = other if waiting is b else one
            mover_store = one if waiting is b else other
            waiter = asyncio.create_task(waited(waiting_store, a.match, 1, 20))
            # The wait subscribed over TLS: the move reaches it as a notice.
            await until_subscribers(server.url, Layout(one.prefix).channel(a.match, 2), 1)
            await mover_store.matches.act(
                mover.match, mover.token, Action("move", 1, "e4"), time.time()
            )
            async with asyncio.timeout(3):
                assert orjson.loads((await waiter)[0])["move"] == "e4"
            # Every client connection is dropped (over TLS: the relay's pipes and links).
            admin = aioredis.Redis(unix_socket_path=server.socket)
            try:
                assert await admin.client_kill_filter(_type="normal", skipme=True) >= 2
            finally:
                await admin.aclose()
            waiter = asyncio.create_task(waited(mover_store, a.match, 2, 20))
            reply = Action("move", 2, "e5")
            for _ in range(50):  # the first call may meet the dropped connection: 503
                if (await outcome(waiting_store.matches.act(waiting.match, waiting.token, reply,
                                                    time.time())))[0] == "ok":  # fmt: skip
                    break
                await asyncio.sleep(0.1)
            async with asyncio.timeout(10):
                events = await _settle(mover_store, waiter, a.match)
            assert orjson.loads(events[-1])["move"] == "e5"
        finally:
            await one.close()
            await other.close()


async def test_a_ban_or_a_block_made_through_one_process_holds_in_another(
    make_store: StoreMaker,
) -> None:
    from relay.core.moderation import Ban
    from relay.core.standings import public_id
    from relay.store.moderation import BANS_FRESH

    one, other = make_store(), make_store()
    ann, bob = "a" * 43, "b" * 43
    ann_id = public_id(hash_token(ann))
    async with asyncio.timeout(30):
        assert await other.moderation.banned((ann_id,), None, time.time()) is None  # now read
        now = time.time()
        await one.moderation.ban(Ban(f"id:{ann_id}", now + 60, "farming", now))
        await asyncio.sleep(BANS_FRESH + 0.1)  # the other process reads the bans again
        found = await other.moderation.banned((ann_id,), None, time.time())
        assert found is not None and found.reason == "farming"
        # Ann blocks Bob through one process; their seeks through the other never meet.
        first = await other.matches.seek("g", "1", None, now, player=ann)
        second = await other.matches.seek("g", "1", None, now, player=bob)
        assert second.match == first.match
        await start(other, first, at=now)
        await one.moderation.block(ann, first.match, "block", now)
        again = await other.matches.seek("g", "1", None, now, player=bob)
        mine = await one.matches.seek("g", "1", None, now, player=ann)
        assert mine.match != again.match and mine.seat == 0

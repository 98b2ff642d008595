"""Moderation in the Redis store: bans, reports, blocks, voided ratings and erased names, on
every relay process sharing the store (relay.store.moderation says what each does).

Keys: ``P{mod}bans`` (hash: target -> the ban's JSON), ``P{mod}reports`` (list: the newest
reports' JSON, newest first) and ``P{mod}rn`` (their count), in one slot, for the host's
rare writes; per key digest D, ``P{p:D}blocks`` (hash: blocked digest -> the entry's JSON);
per public id I, ``P{i:I}`` (string: the digest of the key that sought under it, for
rating_days after its last seek, so that erase finds the key). A seat's report of a match is
remembered in the match's hash (``rp`` seat about: the report's number). A rated match's void
record is ``P{g:G}void:M``, in its game's slot, written by rate.lua and used by void.lua; a
waiting seek's blocks are in its match's hash (``bk``, read by JOIN and ROOM)."""

from __future__ import annotations

import hmac
from typing import Any

import orjson

from relay.core.errors import RelayError
from relay.core.model import StoreSettings, hash_token
from relay.core.moderation import (
    BANS_KEPT,
    BLOCKS_DAYS,
    BLOCKS_KEPT,
    REPORT_CHAT,
    REPORT_DAYS,
    REPORTS_KEPT,
    Ban,
    Blocked,
    BlockKind,
    Erased,
    Report,
    SeatVoid,
    Voided,
    is_banned,
)
from relay.core.standings import DAY, public_id, seat_id
from relay.core.text_policy import skeletons
from relay.store.moderation import BANS_FRESH, Admit
from relay.store.redis.connection import Connection
from relay.store.redis.keys import Layout
from relay.store.redis.names import RedisNames

__all__ = ["ERASED", "RedisModeration"]

ERASED = "erased"
"""What holds an erased name's look (no key's digest is this short)."""

_SEAT_FIELDS = ["status", "h0", "h1", "p0", "p1", "n0", "n1", "game"]


class RedisModeration:
    """The Redis store's bans, reports, blocks, voids and erasures."""

    def __init__(self, store: Connection, names: RedisNames, settings: StoreSettings) -> None:
        self.store = store
        self.names = names
        self.settings = settings
        self.layout = Layout(store.prefix)
        prefix = store.prefix
        self._bans_key = f"{prefix}{{mod}}bans"
        self._reports_key = f"{prefix}{{mod}}reports"
        self._count_key = f"{prefix}{{mod}}rn"
        self._read: tuple[float, list[Ban]] = (float("-inf"), [])
        """When this process last read the bans, and what it read."""

    def _blocks_key(self, digest: str) -> str:
        return f"{self.store.prefix}{{p:{digest}}}blocks"

    def _id_key(self, public: str) -> str:
        return f"{self.store.prefix}{{i:{public}}}"

    # -- bans ------------------------------------------------------------------------------

    async def _fields(self, key: str) -> dict[bytes, bytes]:
        """Returns a hash's fields, read through the store's own connection (FIELDS)."""
        flat = await self.store.call("FIELDS", [key], [])
        return dict(zip(flat[::2], flat[1::2], strict=True))

    async def _all_bans(self) -> dict[bytes, Ban]:
        found = await self._fields(self._bans_key)
        return {target: Ban.from_dict(orjson.loads(raw)) for target, raw in found.items()}

    async def ban(self, ban: Ban) -> None:
        """Bans a target until a time (Moderation.ban)."""
        client = await self.store.client()
        held = await self._all_bans()
        ended = [target for target, kept in held.items() if kept.until <= ban.at]
        if ended:
            await self.store.guard(client.hdel(self._bans_key, *ended))
        live = len(held) - len(ended)
        if ban.target.encode() not in held and live >= BANS_KEPT:
            raise RelayError("admin/too_many")
        await self.store.guard(client.hset(self._bans_key, ban.target, orjson.dumps(ban.as_dict())))
        self._read = (float("-inf"), [])

    async def unban(self, target: str) -> bool:
        """Lifts a target's ban (Moderation.unban)."""
        client = await self.store.client()
        lifted = await self.store.guard(client.hdel(self._bans_key, target))
        self._read = (float("-inf"), [])
        return bool(lifted)

    async def bans(self, now: float) -> list[Ban]:
        """Returns the bans in force (Moderation.bans)."""
        found = [ban for ban in (await self._all_bans()).values() if ban.until > now]
        return sorted(found, key=lambda ban: ban.until)

    async def banned(self, ids: tuple[str, ...], address: str | None, now: float) -> Ban | None:
        """Returns the ban covering an id or the address, as read at most BANS_FRESH ago."""
        read_at, held = self._read
        if now - read_at >= BANS_FRESH or now < read_at:
            try:
                held = await self.bans(now)
            except RelayError:
                # Redis away (its node failing over): the bans last read stand meanwhile.
                if read_at == float("-inf"):
                    raise
            else:
                self._read = (now, held)
        if not held:
            return None
        return is_banned(held, ids, address, now)

    # -- reports ---------------------------------------------------------------------------

    async def report(
        self, match: str, token: str, about: str, text: str, now: float, admit: Admit
    ) -> Report:
        """Files a seat's report of its partner (Moderation.report)."""
        store = self.store
        client = await store.client()
        key = self.layout.match(match)
        row = [
            None if value is None else value.decode()
            for value in await store.guard(client.hmget(key, _SEAT_FIELDS))
        ]
        status, h0, h1, p0, p1, n0, n1, game = row
        if status is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        if status == "expired":
            raise RelayError("match/expired")
        seat = _seat(hash_token(token), (h0, h1), (p0, p1))
        field = f"rp{seat}{about}"
        filed = await store.guard(client.hget(key, field))
        if filed is not None:
            for raw in await store.guard(client.lrange(self._reports_key, 0, -1)):
                found = Report.from_dict(orjson.loads(raw))
                if found.n == int(filed):
                    return found
        admit()
        partner = 1 - seat
        chat = await store.guard(client.lrange(f"{self.layout.tagged(match)}c:{match}", -200, -1))
        said = [
            line["text"]
            for line in map(orjson.loads, chat)
            if line["seat"] == partner and line["text"]
        ]
        n = int(await store.guard(client.incr(self._count_key)))
        players, names = (p0, p1), (n0, n1)
        report = Report(
            n, now, match, game or "", about, text, seat_id(players[seat]),
            seat_id(players[partner]), names[partner], tuple(said[-REPORT_CHAT:]),
        )  # fmt: skip
        await store.guard(client.lpush(self._reports_key, orjson.dumps(report.as_dict())))
        await store.guard(client.ltrim(self._reports_key, 0, REPORTS_KEPT - 1))
        await store.guard(client.expire(self._reports_key, REPORT_DAYS * 86_400))
        await store.guard(client.hset(key, field, str(n)))
        return report

    async def reports(self, limit: int, now: float) -> list[Report]:
        """Returns the newest reports (Moderation.reports)."""
        client = await self.store.client()
        raw = await self.store.guard(client.lrange(self._reports_key, 0, limit - 1))
        horizon = now - REPORT_DAYS * DAY
        found = (Report.from_dict(orjson.loads(item)) for item in raw)
        return [report for report in found if report.at > horizon]

    # -- blocks ----------------------------------------------------------------------------

    async def blocking(self, digest: str) -> str:
        """Returns the digests a key blocks (not mutes), comma-joined, as JOIN, ROOM and OPEN
        take them ('' for none or no key)."""
        if not digest:
            return ""
        found = await self._fields(self._blocks_key(digest))
        return ",".join(
            blocked.decode()
            for blocked, raw in found.items()
            if orjson.loads(raw)["kind"] == "block"
        )

    async def block(self, player: str, match: str, kind: BlockKind, now: float) -> list[Blocked]:
        """Blocks or mutes a match's partner's key (Moderation.block)."""
        store = self.store
        client = await store.client()
        digest = hash_token(player)
        fields = ["status", "p0", "p1", "n0", "n1"]
        row = [
            None if value is None else value.decode()
            for value in await store.guard(client.hmget(self.layout.match(match), fields))
        ]
        status, p0, p1, n0, n1 = row
        if status is None or status == "expired":
            raise RelayError("match/unknown", f"No match {match!r}.")
        if digest not in (p0, p1):
            raise RelayError("player/not_seated")
        partner, name = (p1, n1) if digest == p0 else (p0, n0)
        if not partner:
            raise RelayError("block/no_key")
        return await self.block_key(player, partner, name, kind, now)

    async def block_key(
        self, player: str, partner: str, name: str | None, kind: BlockKind, now: float
    ) -> list[Blocked]:
        """Blocks or mutes a key by its digest (Moderation.block_key)."""
        store = self.store
        client = await store.client()
        key = self._blocks_key(hash_token(player))
        known = await store.guard(client.hexists(key, partner))
        if not known and await store.guard(client.hlen(key)) >= BLOCKS_KEPT:
            raise RelayError("block/full")
        entry = Blocked(public_id(partner), name, kind, now)
        await store.guard(client.hset(key, partner, orjson.dumps(entry.as_dict())))
        await store.guard(client.expire(key, BLOCKS_DAYS * 86_400))
        return await self.blocks(player)

    async def unblock(self, player: str, public: str) -> list[Blocked]:
        """Lifts a block or mute (Moderation.unblock)."""
        client = await self.store.client()
        key = self._blocks_key(hash_token(player))
        found = await self.store.guard(client.hgetall(key))
        gone = [blocked for blocked, raw in found.items() if orjson.loads(raw)["id"] == public]
        if gone:
            await self.store.guard(client.hdel(key, *gone))
        return await self.blocks(player)

    async def blocks(self, player: str) -> list[Blocked]:
        """Returns a key's blocks and mutes, newest first (Moderation.blocks)."""
        client = await self.store.client()
        found = await self.store.guard(client.hgetall(self._blocks_key(hash_token(player))))
        entries = [_blocked(orjson.loads(raw)) for raw in found.values()]
        return sorted(entries, key=lambda entry: -entry.at)

    # -- voids and erasures ----------------------------------------------------------------

    async def know(self, digest: str) -> None:
        """Notes a seeking key's public id (erase finds its key by it)."""
        if not digest:
            return
        rules = self.settings.ratings
        keep = max(REPORT_DAYS * DAY, rules.keep if rules is not None else 0.0)
        await self.store.call("KNOW", [self._id_key(public_id(digest))], [digest, round(keep)])

    async def void(self, match: str, game: str | None, now: float) -> Voided:
        """Takes back a match's rating (Moderation.void)."""
        store = self.store
        client = await store.client()
        held = await store.guard(client.hget(self.layout.match(match), "game"))
        if held is not None:
            game = held.decode()
        if game is None:
            raise RelayError(
                "request/invalid",
                f"The relay holds match {match!r} no more: give its game ('game') to void it.",
            )
        tagged = f"{store.prefix}{{g:{game}}}"
        record_key = f"{tagged}void:{match}"
        raw = await store.guard(client.get(record_key))
        if raw is None:
            return Voided(match, game, "not_rated")
        record = orjson.loads(raw)
        digests = record["d"]
        keys = [
            record_key,
            f"{tagged}r:{digests[0]}",
            f"{tagged}r:{digests[1]}",
            f"{tagged}h:{digests[0]}",
            f"{tagged}h:{digests[1]}",
            f"{tagged}board",
        ]
        answer = await store.call("VOID", keys, [match])
        state = answer[0].decode()
        if state == "not_rated":
            return Voided(match, game, "not_rated")
        seats = []
        for seat, exact, rating in orjson.loads(answer[1]) or []:
            before, after = record["before"][seat][0], record["after"][seat][0]
            seats.append(
                SeatVoid(
                    public_id(digests[seat]), float(before), float(after), float(rating),
                    bool(exact),
                )
            )  # fmt: skip
        await store.call("VOIDED", [self.layout.match(match)], [])
        return Voided(match, game, "voided" if state == "voided" else "already", tuple(seats))

    async def erase(self, public: str, now: float) -> Erased:
        """Erases a key's name and chat lines (Moderation.erase)."""
        store = self.store
        client = await store.client()
        found = await store.guard(client.get(self._id_key(public)))
        if found is None:
            return Erased(public, 0, 0, 0)
        digest = found.decode()
        listed = await store.guard(client.zrange(self.layout.player(digest), 0, -1))
        matches = lines = 0
        looks: set[str] = set()
        for member in listed:
            had, erased, name = await store.on_match("ERASE", member.decode(), now, digest)
            if int(had) or int(erased):
                matches += 1
                lines += int(erased)
            if int(had):
                looks.update(skeletons(name.decode()))
        for look in looks:
            await self.names.withhold(look, ERASED)
        games = await store.guard(client.smembers(f"{store.prefix}{{p:{digest}}}games"))
        ratings = 0
        for game in games:
            key = f"{store.prefix}{{g:{game.decode()}}}r:{digest}"
            ratings += int(await store.guard(client.hdel(key, "name")))
        return Erased(public, matches, lines, ratings)


def _seat(digest: str, seats: tuple[str | None, str | None], players: tuple[Any, Any]) -> int:
    """Returns the seat of a token's digest (a seat token's or a player key's)."""
    for seat in (0, 1):
        if seats[seat] is not None and hmac.compare_digest(digest, seats[seat] or ""):
            return seat
    for seat in (0, 1):
        if players[seat] and hmac.compare_digest(digest, players[seat]):
            return seat
    raise RelayError("auth/bad_token")


def _blocked(found: dict[str, Any]) -> Blocked:
    return Blocked(found["id"], found["name"], found["kind"], float(found["at"]))

"""Rematches in the Redis store: their scripts and the calls that run them, kept apart.

Each script touches the keys of ONE match (all in the match's shard, see
`relay.store.redis.keys`), never the old and the new match at once:

- ``P{T}x:I``   hash beside a finished match I: ``v`` (version), ``state``, ``o0``/``o1``
                ('1' when that seat offers), ``by`` (the seat that declined), ``at`` (when the
                standing offer was made), ``next`` (the new match once both offered); it
                expires with the match (keep)
- ``P{T}wx:I``  sharded channel: 'x' at each change of the rematch

Accepting runs REMATCH on the old match (recording the decision and the new match's id,
drawn in Python), then REMATCH_START on the new match's own keys, which is idempotent: any
later read of an accepted rematch runs it again, so a relay that stopped between the two
calls leaves nothing half done."""

from __future__ import annotations

from typing import Any, Protocol

from relay.core.rematch import NONE, Rematch, RematchOp, RematchState
from relay.store.redis import keys as redis_keys
from relay.store.redis.link import Link
from relay.store.redis.players import RedisPlayers

__all__ = ["REMATCH", "REMATCH_START", "RedisRematches", "RematchLink"]

REMATCH = r"""
-- KEYS[1..2] = the match's hash, its rematch hash
-- ARGV[1..8] = now, grace, keep, token digest ('' to read as a spectator), op (read, offer,
--              decline), id for a new match, the rematch's channel, the match's id
local M, X = KEYS[1], KEYS[2]
local NOW_TEXT = ARGV[1]
local NOW, GRACE, KEEP = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local DIGEST, OP = ARGV[4], ARGV[5]
local f = redis.call('HMGET', M, 'status', 'h0', 'h1', 'first', 'game', 'version', 'tc', 'tcj',
  'p0', 'p1', 'c0', 'c1')
if not f[1] then return {'e', 'match/unknown'} end
if f[1] == 'expired' then return {'e', 'match/expired'} end
local seat = -1
if DIGEST ~= '' then
  seat = seat_of(M, DIGEST, f[2], f[3])
  if not seat then return {'e', 'auth/bad_token'} end
end
if OP ~= 'read' and f[1] ~= 'finished' then return {'e', 'rematch/not_finished'} end
local r = redis.call('HMGET', X, 'v', 'state', 'o0', 'o1', 'by', 'at', 'next')
local v, state = tonumber(r[1] or '0'), r[2] or 'none'
local o = {r[3] == '1', r[4] == '1'}
local by, at, nxt = r[5] or '', r[6] or '', r[7] or ''
local changed = false
local function set(new)
  state = new
  v = v + 1
  changed = true
end
if state == 'offered' and tonumber(at) + GRACE < NOW then
  o = {false, false}
  by, at = '', ''
  set('lapsed')
end
if OP == 'offer' and state ~= 'accepted' and not o[seat + 1] then
  o[seat + 1] = true
  by = ''
  if o[2 - seat] then
    nxt, at = ARGV[6], ''
    set('accepted')
  else
    at = NOW_TEXT
    set('offered')
  end
elseif OP == 'decline' then
  if state == 'accepted' then return {'e', 'rematch/accepted'} end
  if not (state == 'declined' and by == tostring(seat)) then
    o = {false, false}
    by, at = tostring(seat), ''
    set('declined')
  end
end
local function bit(b) if b then return '1' end return '0' end
if changed then
  redis.call('HSET', X, 'v', v, 'state', state, 'o0', bit(o[1]), 'o1', bit(o[2]), 'by', by,
    'at', at, 'next', nxt)
  redis.call('PEXPIRE', X, math.ceil(KEEP * 1000))
  redis.call('SPUBLISH', ARGV[7], 'x')
end
local first = ''
if nxt ~= '' then first = tostring(1 - tonumber(f[4])) end
return {'ok', v, state, bit(o[1]), bit(o[2]), by, at, nxt, first, f[5], f[6], f[2], f[3],
  f[7] or '', f[8] or '', f[9] or '', f[10] or '', f[11] or '', f[12] or ''}
"""
"""Reads a match's rematch, or has a seat offer or decline one (relay.rematch.step)."""

REMATCH_START = r"""
-- KEYS[1..4] = the new match's hash, log; the counts hash; the deadlines set
-- ARGV[1..15] = now, grace, game, version, digest of seat 0, of seat 1, first, the new
--               match's channel, the new match's id, the time control's key and JSON (''),
--               each seat's player key digest and contact ('' for none)
local M, E = KEYS[1], KEYS[2]
if redis.call('EXISTS', M) == 1 then return {'ok', 0} end
local NOW_TEXT, FIRST = ARGV[1], ARGV[7]
local due = tonumber(NOW_TEXT) + tonumber(ARGV[2])
local fields, tail = {}, ''
if ARGV[10] ~= '' then
  local at
  fields, tail, at = clock_start(ARGV[10], ARGV[11], math.floor(tonumber(NOW_TEXT) * 1000 + 0.5))
  table.insert(fields, 'tc')
  table.insert(fields, ARGV[10])
  table.insert(fields, 'tcj')
  table.insert(fields, ARGV[11])
  due = math.min(due, at)
end
redis.call('HSET', M, 'game', ARGV[3], 'version', ARGV[4], 'status', 'playing',
  'h0', ARGV[5], 'h1', ARGV[6], 'seen0', NOW_TEXT, 'seen1', NOW_TEXT, 'since', NOW_TEXT,
  'last', 1, 'd1', '', 'turn', FIRST, 'first', FIRST, unpack(fields))
for seat = 0, 1 do
  if ARGV[12 + seat] ~= '' then redis.call('HSET', M, 'p' .. seat, ARGV[12 + seat]) end
  if ARGV[14 + seat] ~= '' then redis.call('HSET', M, 'c' .. seat, ARGV[14 + seat]) end
end
local event = '{"seq":1,"type":"started","first":' .. FIRST .. tail .. '}'
redis.call('RPUSH', E, event)
redis.call('HINCRBY', KEYS[3], 'playing', 1)
redis.call('ZADD', KEYS[4], string.format('%.17g', due), ARGV[9])
redis.call('SPUBLISH', ARGV[8], '1 ' .. event)
local answer = {'ok', 1}
if ARGV[10] ~= '' then
  local _, base = control_of(ARGV[10])
  local start = math.floor(tonumber(NOW_TEXT) * 1000 + 0.5)
  for _, value in ipairs(notice(M, ARGV[10], FIRST, start + base)) do
    table.insert(answer, value)
  end
end
return answer
"""
"""Opens the new match of an accepted rematch, once: same game, version, seat tokens, player
keys and contacts; answers 1 and the first mover's turn notice (relay.store.redis.scripts' JOIN)
when it opened it, 0 when it was open already."""


class RematchLink(Link, Protocol):
    """The store as the rematch part sees it: besides Link, the player-key lists a new match
    joins, and the turn sink its first mover's notice goes to."""

    players: RedisPlayers

    def tell(self, match: str, tail: list[Any], seq: int) -> None:
        """Tells the turn sink of the notice a script answered, for event seq."""


class RedisRematches:
    """The Redis store's rematch calls (the store delegates to it)."""

    def __init__(self, store: RematchLink) -> None:
        self.store = store
        self.layout = redis_keys.Layout(store.prefix)

    def channel(self, match: str) -> str:
        """Returns the channel on which changes to the match's rematch are announced."""
        return f"{self.layout.tagged(match)}wx:{match}"

    async def rematch(self, match: str, digest: str, op: RematchOp, now: float) -> Rematch:
        """Runs REMATCH on the match's keys, then, when accepted, REMATCH_START on the new
        match's keys."""
        store = self.store
        tagged = self.layout.tagged(match)
        answer = await store.call(
            "REMATCH",
            [f"{tagged}m:{match}", f"{tagged}x:{match}"],
            [
                repr(float(now)),
                repr(store.settings.grace),
                repr(store.settings.keep),
                digest,
                op,
                redis_keys.new_id(),
                self.channel(match),
                match,
            ],
        )
        found = _rematch(answer)
        if found.match is not None:
            nxt, first, game, version, h0, h1, control, json, p0, p1, c0, c1 = answer[7:]
            new = found.match
            at = self.layout.tagged(new)
            started = await store.call(
                "REMATCH_START",
                [f"{at}m:{new}", f"{at}e:{new}", f"{at}counts", f"{at}deadlines"],
                [repr(float(now)), repr(store.settings.grace), game, version, h0, h1, first,
                 self.layout.channel(new, 1), nxt, control, json, p0, p1, c0, c1],
            )  # fmt: skip
            if int(started[1]):
                # The new match is listed under its players' keys in a step of its own.
                for player in (p0, p1):
                    if player:
                        await store.players.add(_text(player), new, now)
                store.tell(new, started[2:], 1)
        return found


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _rematch(answer: list[Any]) -> Rematch:
    """Reads REMATCH's answer."""
    _, version, state, o0, o1, by, at, nxt, first = (_text(v) for v in answer[:9])
    if int(version) == 0:
        return NONE
    known: RematchState = state  # type: ignore[assignment]
    return Rematch(
        int(version),
        known,
        (o0 == "1", o1 == "1"),
        by=int(by) if by else None,
        match=nxt or None,
        offered_at=float(at) if at else None,
        first=int(first) if first else None,
    )

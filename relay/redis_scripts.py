"""The Lua scripts of the Redis store: every change to a match is one atomic script.

Keys, under a prefix P (default ``movewire:``), for a match with id I:

- ``P m:I``       hash: game, version, room, status, h0/h1 (token digests), seen0/seen1,
                  since, turn, first, ender, last (number of events)
- ``P e:I``       list: the event log, the JSON bytes sent on the wire (event N at index N-1)
- ``P d:I``       list, beside the log: which write made each event, so a retry is recognised
- ``P q:G:V``     list: ids of matches waiting for a player of game G, version V (oldest first)
- ``P r:G:R``     string: id of the match holding private room R of game G
- ``P t:D``       string: match:seat:until, what a seeker's own token (digest D) got; a
                  repeated seek before `until` answers it again (the key expires then too)
- ``P waiting``   hash: game -> matches waiting for a player (the --max-waiting limit)
- ``P counts``    hash: status -> matches (for /metrics)
- ``P deadlines`` sorted set: id -> the time at which the reaper must look at the match
- ``P wake``      pub/sub channel: 'id seq event' for each event appended, and the bare id
                  of a match whose status changed otherwise

Rematches and lobbies have keys and scripts of their own, in `relay.redis_rematch` (``P x:I``
beside a finished match) and `relay.redis_lobby` (``P lobby:G:...`` per game); their scripts
name every key they touch in KEYS and touch one match's (or one game's lobby's) keys each.

Every script takes ARGV[1..4] = prefix, now, grace, keep. Scripts build the keys they touch
from the prefix, so the store needs a standalone Redis (or a replicated primary), not Redis
Cluster. Move events arrive built in Python (byte-exact text); the fixed-shape events
(started, pass, ended) are built here, byte for byte as `relay.store` builds them.
"""

from __future__ import annotations

__all__ = ["ACT", "POLL", "REAP", "SEEK"]

_PRELUDE = r"""
local P = ARGV[1]
local NOW_TEXT = ARGV[2]
local NOW = tonumber(NOW_TEXT)
local GRACE = tonumber(ARGV[3])
local KEEP = tonumber(ARGV[4])
local DEADLINES = P .. 'deadlines'
local COUNTS = P .. 'counts'
local WAITING = P .. 'waiting'
local CHANNEL = P .. 'wake'

local function mkey(id) return P .. 'm:' .. id end
local function ekey(id) return P .. 'e:' .. id end
local function dkey(id) return P .. 'd:' .. id end
local function qkey(game, version) return P .. 'q:' .. game .. ':' .. version end
local function rkey(game, room) return P .. 'r:' .. game .. ':' .. room end
local function int(n) return string.format('%d', n) end

local function recount(old, new)
  if old then redis.call('HINCRBY', COUNTS, old, -1) end
  if new then redis.call('HINCRBY', COUNTS, new, 1) end
end

local function unwait(game)
  if redis.call('HINCRBY', WAITING, game, -1) <= 0 then redis.call('HDEL', WAITING, game) end
end

-- The reaper looks at a match once this time has passed: the same conditions as reap().
local function reschedule(id)
  local f = redis.call('HMGET', mkey(id), 'status', 'seen0', 'seen1', 'since', 'ender')
  local status, at = f[1], 0
  if status == 'waiting' then
    at = tonumber(f[2]) + GRACE
  elseif status == 'playing' then
    at = math.min(tonumber(f[2]), tonumber(f[3])) + GRACE
  elseif status == 'ending' then
    at = math.min(tonumber(f[4]), tonumber(f[3 - tonumber(f[5])])) + GRACE
  else
    at = tonumber(f[4]) + KEEP
  end
  redis.call('ZADD', DEADLINES, string.format('%.17g', at), id)
end

-- The notification carries the new event ('id seq event'): a poll waiting for exactly that
-- event can answer with it; any other waits re-read the log.
local function append(id, event, done)
  local seq = redis.call('RPUSH', ekey(id), event)
  redis.call('RPUSH', dkey(id), done)
  redis.call('HSET', mkey(id), 'last', seq)
  redis.call('PUBLISH', CHANNEL, id .. ' ' .. int(seq) .. ' ' .. event)
  return seq
end

local function free_room(id, game, room)
  if room then
    local key = rkey(game, room)
    if redis.call('GET', key) == id then redis.call('DEL', key) end
  end
end

local function finish(id, reason, seat, done)
  local m = mkey(id)
  local f = redis.call('HMGET', m, 'status', 'game', 'room', 'last')
  recount(f[1], 'finished')
  redis.call('HSET', m, 'status', 'finished', 'since', NOW_TEXT, 'turn', '')
  free_room(id, f[2], f[3])
  local event = '{"seq":' .. int(tonumber(f[4]) + 1) .. ',"type":"ended","reason":"'
    .. reason .. '","seat":' .. int(seat) .. '}'
  local seq = append(id, event, done)
  reschedule(id)
  return seq
end

local function expire(id)
  local m = mkey(id)
  local f = redis.call('HMGET', m, 'status', 'game', 'version', 'room')
  recount(f[1], 'expired')
  redis.call('HSET', m, 'status', 'expired', 'since', NOW_TEXT)
  unwait(f[2])
  if f[4] then
    free_room(id, f[2], f[4])
  else
    redis.call('LREM', qkey(f[2], f[3]), 0, id)
  end
  reschedule(id)
  redis.call('PUBLISH', CHANNEL, id)
end
"""

SEEK = (
    _PRELUDE
    + r"""
-- ARGV[5..12] = game, version, room ('' for none), max waiting, new id, token digest, first,
-- and '1' when the token is the seeker's own (a repeated seek then gets the same ticket)
local GAME, VERSION, ROOM = ARGV[5], ARGV[6], ARGV[7]
local MAX_WAITING = tonumber(ARGV[8])
local ID, DIGEST, FIRST = ARGV[9], ARGV[10], ARGV[11]
local RESEEK = P .. 't:' .. DIGEST

if ARGV[12] == '1' then
  local prior = redis.call('GET', RESEEK)
  if prior then
    local id, seat, till = string.match(prior, '^(.*):(%d):(.*)$')
    if tonumber(till) >= NOW and redis.call('EXISTS', mkey(id)) == 1 then
      return {'ok', id, tonumber(seat)}
    end
  end
end

local function remember(result)
  if ARGV[12] == '1' and result[1] == 'ok' then
    local till = string.format('%.17g', NOW + GRACE)
    redis.call('SET', RESEEK, result[2] .. ':' .. result[3] .. ':' .. till,
      'PX', math.ceil(GRACE * 1000))
  end
  return result
end

local function open()
  if tonumber(redis.call('HGET', WAITING, GAME) or '0') >= MAX_WAITING then
    return {'e', 'limit/waiting'}
  end
  local m = mkey(ID)
  if redis.call('EXISTS', m) == 1 then return {'e', 'collision'} end
  redis.call('HSET', m, 'game', GAME, 'version', VERSION, 'status', 'waiting', 'h0', DIGEST,
    'seen0', NOW_TEXT, 'seen1', NOW_TEXT, 'since', NOW_TEXT, 'last', 0, 'turn', '', 'first', '')
  if ROOM ~= '' then redis.call('HSET', m, 'room', ROOM) end
  redis.call('HINCRBY', WAITING, GAME, 1)
  recount(false, 'waiting')
  reschedule(ID)
  return {'ok', ID, 0}
end

local function join(id)
  local m = mkey(id)
  redis.call('HSET', m, 'h1', DIGEST, 'seen1', NOW_TEXT, 'status', 'playing',
    'since', NOW_TEXT, 'first', FIRST, 'turn', FIRST)
  recount('waiting', 'playing')
  unwait(GAME)
  append(id, '{"seq":1,"type":"started","first":' .. FIRST .. '}', '')
  reschedule(id)
  return {'ok', id, 1}
end

if ROOM ~= '' then
  local room = rkey(GAME, ROOM)
  local held = redis.call('GET', room)
  if held then
    local f = redis.call('HMGET', mkey(held), 'status', 'seen0', 'version')
    local status = f[1]
    if status == 'waiting' and tonumber(f[2]) + GRACE < NOW then
      expire(held)
      status = 'expired'
    end
    if status == 'waiting' then
      if f[3] ~= VERSION then return {'e', 'room/version_mismatch', f[3]} end
      return remember(join(held))
    end
    if status == 'playing' or status == 'ending' then return {'e', 'room/full'} end
  end
  local opened = open()
  if opened[1] == 'ok' then redis.call('SET', room, ID) end
  return remember(opened)
end

local queue = qkey(GAME, VERSION)
while true do
  local id = redis.call('LPOP', queue)
  if not id then break end
  local f = redis.call('HMGET', mkey(id), 'status', 'seen0')
  if f[1] == 'waiting' then
    if tonumber(f[2]) + GRACE < NOW then expire(id) else return remember(join(id)) end
  end
end
local opened = open()
if opened[1] == 'ok' then redis.call('RPUSH', queue, ID) end
return remember(opened)
"""
)
"""Pairs a seeker: joins the oldest waiting match (or the room's), or opens one."""

POLL = (
    _PRELUDE
    + r"""
-- ARGV[5..7] = match id, token digest ('' for a spectator), after
local ID, DIGEST = ARGV[5], ARGV[6]
local m = mkey(ID)
local f = redis.call('HMGET', m, 'status', 'h0', 'h1')
if not f[1] then return {'e', 'match/unknown'} end
if f[1] == 'expired' then return {'e', 'match/expired'} end
local seat = -1
if DIGEST ~= '' then
  if DIGEST == f[2] then seat = 0 elseif DIGEST == f[3] then seat = 1
  else return {'e', 'auth/bad_token'} end
  redis.call('HSET', m, 'seen' .. seat, NOW_TEXT)
  reschedule(ID)
end
return {'ok', seat, redis.call('LRANGE', ekey(ID), ARGV[7], -1)}
"""
)
"""Reads the log above `after`; a seat's read also marks it present."""

ACT = (
    _PRELUDE
    + r"""
-- ARGV[5..14] = match id, token digest, kind, after (-1 for none), write digest,
--               agree (1/0), end (1/0), the move event as seat 0 sends it, as seat 1 does,
--               most events a log may hold
local ID, DIGEST, KIND = ARGV[5], ARGV[6], ARGV[7]
local AFTER = tonumber(ARGV[8])
local WRITE, AGREE, END = ARGV[9], ARGV[10] == '1', ARGV[11] == '1'
local m = mkey(ID)
local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'turn', 'ender', 'last')
local status = f[1]
if not status then return {'e', 'match/unknown'} end
local seat
if DIGEST == f[2] then seat = 0 elseif DIGEST == f[3] then seat = 1
else return {'e', 'auth/bad_token'} end
redis.call('HSET', m, 'seen' .. seat, NOW_TEXT)
reschedule(ID)

if KIND == 'cancel' then
  if status == 'expired' then return {'ok', 0} end
  if status ~= 'waiting' then return {'e', 'match/started'} end
  expire(ID)
  return {'ok', 0}
end
if status == 'expired' then return {'e', 'match/expired'} end
if status == 'waiting' then return {'e', 'match/not_started'} end

local done = int(seat) .. ':' .. KIND .. ':' .. WRITE
local last = tonumber(f[6])
if KIND == 'resign' then
  if status == 'finished' then
    local mine = int(seat) .. ':resign:'
    local previous = redis.call('LINDEX', dkey(ID), -1)
    if previous and string.sub(previous, 1, #mine) == mine then return {'ok', last} end
    return {'e', 'match/finished'}
  end
  return {'ok', finish(ID, 'resigned', seat, done)}
end
if AFTER >= 0 and AFTER < last then
  if redis.call('LINDEX', dkey(ID), int(AFTER)) == done then return {'ok', AFTER + 1} end
  if status == 'finished' then return {'e', 'match/finished'} end
  return {'e', 'turn/stale', last}
end
if AFTER ~= last then return {'e', 'turn/stale', last} end
if status == 'finished' then return {'e', 'match/finished'} end
if KIND == 'confirm' then
  if status == 'playing' and not AGREE then
    -- The seat to move disputes the partner's last move or pass.
    local move, pass = int(1 - seat) .. ':move:', int(1 - seat) .. ':pass:'
    local previous = redis.call('LINDEX', dkey(ID), -1)
    if previous and (string.sub(previous, 1, #move) == move
                     or string.sub(previous, 1, #pass) == pass) then
      return {'ok', finish(ID, 'disputed', seat, done)}
    end
  end
  if status ~= 'ending' then return {'e', 'match/not_ending'} end
  if seat == tonumber(f[5]) then return {'e', 'turn/not_yours', 'confirm'} end
  local reason = 'disputed'
  if AGREE then reason = 'agreed' end
  return {'ok', finish(ID, reason, seat, done)}
end
if status == 'ending' then return {'e', 'match/ending'} end
if tonumber(f[4]) ~= seat then return {'e', 'turn/not_yours'} end
if last >= tonumber(ARGV[14]) then return {'e', 'match/too_long'} end
redis.call('HSET', m, 'turn', 1 - seat)
if KIND == 'pass' then
  local event = '{"seq":' .. int(AFTER + 1) .. ',"type":"pass","seat":' .. int(seat) .. '}'
  return {'ok', append(ID, event, done)}
end
if END then
  recount(status, 'ending')
  redis.call('HSET', m, 'status', 'ending', 'ender', seat, 'since', NOW_TEXT)
end
local seq = append(ID, ARGV[12 + seat], done)
reschedule(ID)
return {'ok', seq}
"""
)
"""Applies a seat's move, pass, confirm, resign or cancel, once."""

REAP = (
    _PRELUDE
    + r"""
-- ARGV[5] = most matches to look at
local due = redis.call('ZRANGEBYSCORE', DEADLINES, '-inf', '(' .. NOW_TEXT,
  'LIMIT', 0, tonumber(ARGV[5]))
local changed = 0
for _, id in ipairs(due) do
  local f = redis.call('HMGET', mkey(id), 'status', 'seen0', 'seen1', 'since', 'ender')
  local status = f[1]
  local seen0, seen1, since = tonumber(f[2]), tonumber(f[3]), tonumber(f[4])
  if not status then
    redis.call('ZREM', DEADLINES, id)
  elseif status == 'waiting' then
    if seen0 + GRACE < NOW then
      expire(id)
      changed = changed + 1
    else
      reschedule(id)
    end
  elseif status == 'playing' then
    local absent, seen = 0, seen0
    if seen1 < seen0 then absent, seen = 1, seen1 end
    if seen + GRACE < NOW then
      finish(id, 'abandoned', absent, '')
      changed = changed + 1
    else
      reschedule(id)
    end
  elseif status == 'ending' then
    local partner = 1 - tonumber(f[5])
    local seen = seen0
    if partner == 1 then seen = seen1 end
    if since + GRACE < NOW or seen + GRACE < NOW then
      finish(id, 'unconfirmed', partner, '')
      changed = changed + 1
    else
      reschedule(id)
    end
  elseif since + KEEP < NOW then
    redis.call('DEL', mkey(id), ekey(id), dkey(id))
    redis.call('ZREM', DEADLINES, id)
    recount(status, false)
    changed = changed + 1
  else
    reschedule(id)
  end
end
return {changed, #due}
"""
)
"""Ends abandoned and unconfirmed matches, drops silent seekers, forgets old matches."""

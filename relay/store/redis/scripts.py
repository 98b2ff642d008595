"""The Lua scripts of the Redis store: every change to a match is one atomic script.

The scripts are registered as the functions of one Redis Functions library
(`relay.store.redis.library`), loaded once per node: Redis keeps it with its data and replicates
it, and a call runs only the function's body.

The keys are laid out in `relay.store.redis.keys`. A match script is given the match's hash as its
one key (which routes it to the right node of a Redis Cluster) and builds the other keys of
the same shard from the shard's tagged prefix, so it touches one slot. A game script touches
one game's waiting matches. No script touches two slots: a seek without a room is a game
script that picks a waiting match, then a match script that joins it (see RedisStore.seek).

Every match script takes ARGV[1..5] = the shard's tagged prefix, the match id, now, grace,
keep (read by MATCH_PRELUDE's begin_match); a game script takes KEYS[1..2] = the game's
queue and waiting set, ARGV[1..2] = now, grace (GAME_PRELUDE's begin_game). A move arrives
as its JSON string, encoded in Python; the events are built here, byte for byte as
`relay.store.redis.store` builds them.
"""

from __future__ import annotations

__all__ = [
    "ACT",
    "ENSURE",
    "GAME_PRELUDE",
    "JOIN",
    "MATCH_PRELUDE",
    "OPEN",
    "PAIR",
    "POLL",
    "PUSH",
    "REAP",
    "REQUEUE",
    "RESERVE",
    "ROOM",
    "UNLIST",
]

MATCH_PRELUDE = r"""
-- Set at the start of each call (functions run one at a time).
local TAGGED, ID, NOW_TEXT, NOW, NOW_MS, GRACE, KEEP, DEADLINES, COUNTS
local function begin_match(ARGV)
  TAGGED, ID, NOW_TEXT = ARGV[1], ARGV[2], ARGV[3]
  NOW, GRACE, KEEP = tonumber(NOW_TEXT), tonumber(ARGV[4]), tonumber(ARGV[5])
  NOW_MS = math.floor(NOW * 1000 + 0.5)
  DEADLINES, COUNTS = TAGGED .. 'deadlines', TAGGED .. 'counts'
end
local DIGITS = {[0] = '0', [1] = '1'}
local SEEN = {[0] = 'seen0', [1] = 'seen1'}

local function mkey(id) return TAGGED .. 'm:' .. id end
local function ekey(id) return TAGGED .. 'e:' .. id end
-- The channel of the events numbered like `seq` (odd or even): a wait for event N follows the
-- channel of N's parity, so each event is heard only by the waits it answers.
local function wkey(id, seq) return TAGGED .. 'w:' .. id .. ':' .. (seq % 2) end
local function int(n) return string.format('%d', n) end

local function recount(old, new)
  if old then redis.call('HINCRBY', COUNTS, old, -1) end
  if new then redis.call('HINCRBY', COUNTS, new, 1) end
end

local function schedule(id, at)
  redis.call('ZADD', DEADLINES, string.format('%.17g', at), id)
end

-- Makes the match's deadline earlier if `at` is (a turn of a clocked match starting).
local function schedule_lt(id, at)
  redis.call('ZADD', DEADLINES, 'LT', string.format('%.17g', at), id)
end

-- Milliseconds as the seconds an event carries (relay.clock.left_text).
local function left_text(ms)
  if ms < 0 then ms = 0 end
  return string.format('%d.%03d', math.floor(ms / 1000), ms % 1000)
end

-- A time control's key ('fischer:B:I' or 'deadline:D'): its kind, base and increment in ms.
local function control_of(key)
  local kind, base, inc = string.match(key, '^(%a+):(%d+):?(%d*)$')
  return kind, tonumber(base) * 1000, (tonumber(inc) or 0) * 1000
end

-- A clocked match starting play at now_ms: its clock fields, the started event's tail and
-- the time its first turn runs out.
local function clock_start(key, json, now_ms)
  local _, base = control_of(key)
  local start = left_text(base)
  return {'l0', int(base), 'l1', int(base), 'tat', int(now_ms)},
    ',"time_control":' .. json .. ',"left":[' .. start .. ',' .. start .. ']',
    (now_ms + base) / 1000
end

-- Whether a time control's key is a per-move deadline's (a correspondence match).
local function is_deadline(tc)
  return tc ~= nil and tc ~= false and string.sub(tc, 1, 9) == 'deadline:'
end

-- Seconds of polling silence a seek or a game-over move waits out (relay.players.patience):
-- the grace period, or with a per-move deadline the longer of it and the time per move.
local function patience(tc)
  if is_deadline(tc) then return math.max(GRACE, tonumber(string.sub(tc, 10))) end
  return GRACE
end

-- The seat a key digest opens: its token's, else (read only then, off the hot path) its
-- player key's; nil for neither.
local function seat_of(m, digest, h0, h1)
  if digest == h0 then return 0 elseif digest == h1 then return 1 end
  local p = redis.call('HMGET', m, 'p0', 'p1')
  if p[1] and digest == p[1] then return 0 elseif p[2] and digest == p[2] then return 1 end
  return nil
end

-- The turn notice of a seat given the turn in a correspondence match, as a reply's tail:
-- {'n', seat, contact, game, due in ms}; {} when the seat has no contact or the match no
-- deadline control.
local function notice(m, tc, seat, due_ms)
  if not is_deadline(tc) then return {} end
  local c = redis.call('HMGET', m, 'c' .. seat, 'game')
  if not c[1] then return {} end
  return {'n', seat, c[1], c[2], int(due_ms)}
end

-- The seat whose time ran out, of a clocked match in play (nil: none).
local function out_of_time(tc, turn, l0, l1, tat)
  if not tc or not turn or turn == '' then return nil end
  local seat = tonumber(turn)
  local left = tonumber(l0)
  if seat == 1 then left = tonumber(l1) end
  if NOW_MS - tonumber(tat) > left then return seat end
  return nil
end

-- When the reaper must look at a match. A seat's poll makes this later and nothing makes it
-- earlier, so the deadline a match is scheduled with at its opening is never late: the reaper
-- looks, finds the match alive and schedules it again.
local function deadline(id)
  local f = redis.call('HMGET', mkey(id), 'status', 'seen0', 'seen1', 'since', 'ender', 'tc',
    'turn', 'l0', 'l1', 'tat')
  local status = f[1]
  if status == 'waiting' then return tonumber(f[2]) + patience(f[6]) end
  if status == 'playing' then
    local at = math.min(tonumber(f[2]), tonumber(f[3])) + GRACE
    if f[6] and f[7] and f[7] ~= '' then
      local due = (tonumber(f[10]) + tonumber(f[8 + tonumber(f[7])])) / 1000
      -- A correspondence match never ends for want of polls: only its clock matters.
      if is_deadline(f[6]) then at = due else at = math.min(at, due) end
    end
    return at
  end
  if status == 'ending' then
    return math.min(tonumber(f[4]), tonumber(f[3 - tonumber(f[5])])) + patience(f[6])
  end
  return tonumber(f[4]) + KEEP
end

-- Appends an event; the sharded notification carries it ('seq event') on the channel of its
-- number's parity, so a poll waiting for exactly that event can answer with it.
-- `done` is the write that made the event ('seat:kind:digest', '' for the relay's own): kept
-- as its seat's latest write, 'w0' or 'w1' = 'seq|done', to answer that write sent again.
-- `fields` are more fields of the match's hash to set with 'last'.
-- `seq` is the event's number as text, when the caller knows it.
local function append(id, event, done, fields, seq)
  local number = redis.call('RPUSH', ekey(id), event)
  seq = seq or int(number)
  if done == '' then
    redis.call('HSET', mkey(id), 'last', seq, unpack(fields or {}))
  else
    redis.call('HSET', mkey(id), 'last', seq, 'w' .. string.sub(done, 1, 1), seq .. '|' .. done,
      unpack(fields or {}))
  end
  redis.call('SPUBLISH', wkey(id, number), seq .. ' ' .. event)
  return number
end

-- Whether the seat's latest write made event seq and begins with `head` ('seat:kind:').
local function wrote(m, seat, seq, head)
  local w = redis.call('HGET', m, 'w' .. DIGITS[seat])
  local prefix = seq .. '|' .. head
  return w ~= false and string.sub(w, 1, #prefix) == prefix
end

local function free_room(id, game, room)
  if room then
    local key = TAGGED .. 'r:' .. game .. ':' .. room
    if redis.call('GET', key) == id then redis.call('DEL', key) end
  end
end

local function finish(id, reason, seat, done)
  local m = mkey(id)
  local f = redis.call('HMGET', m, 'status', 'game', 'room', 'last')
  recount(f[1], 'finished')
  redis.call('HINCRBY', COUNTS, 'ended:' .. reason, 1)
  redis.call('HSET', m, 'status', 'finished', 'since', NOW_TEXT, 'turn', '')
  free_room(id, f[2], f[3])
  local event = '{"seq":' .. int(tonumber(f[4]) + 1) .. ',"type":"ended","reason":"'
    .. reason .. '","seat":' .. int(seat) .. '}'
  return append(id, event, done)
end

-- Ends a waiting match; returns its game and its queue's version: the version, and with a
-- time control '~' and the control's key (its queue entry is the caller's).
local function expire(id)
  local m = mkey(id)
  local f = redis.call('HMGET', m, 'status', 'game', 'version', 'room', 'tc')
  recount(f[1], 'expired')
  redis.call('HSET', m, 'status', 'expired', 'since', NOW_TEXT)
  free_room(id, f[2], f[4])
  redis.call('SPUBLISH', wkey(id, 0), 'x')
  redis.call('SPUBLISH', wkey(id, 1), 'x')
  if f[5] then return f[2], f[3] .. '~' .. f[5] end
  return f[2], f[3]
end

-- Sets a seat's player key digest and contact handle ('' for none).
local function set_player(m, seat, player, contact)
  if player ~= '' then redis.call('HSET', m, 'p' .. seat, player) end
  if contact ~= '' then redis.call('HSET', m, 'c' .. seat, contact) end
end

-- `control` and `json` are the time control's key and JSON text ('' for none); `player` and
-- `contact` the seeker's player key digest and contact handle ('' for none).
local function open(id, digest, game, version, room, control, json, player, contact)
  local m = mkey(id)
  redis.call('HSET', m, 'game', game, 'version', version, 'status', 'waiting', 'h0', digest,
    'seen0', NOW_TEXT, 'seen1', NOW_TEXT, 'since', NOW_TEXT, 'last', 0, 'turn', '', 'first', '')
  if room ~= '' then redis.call('HSET', m, 'room', room) end
  if control ~= '' then redis.call('HSET', m, 'tc', control, 'tcj', json) end
  set_player(m, '0', player, contact)
  recount(false, 'waiting')
  schedule(id, NOW + patience(control))
end

-- Takes the second seat and starts play; returns the first mover's turn notice (see notice).
local function join(id, digest, first, player, contact)
  local m = mkey(id)
  local c = redis.call('HMGET', m, 'tc', 'tcj')
  local fields, tail = {}, ''
  if c[1] then
    local due
    fields, tail, due = clock_start(c[1], c[2], NOW_MS)
    schedule_lt(id, due)
  end
  redis.call('HSET', m, 'h1', digest, 'seen1', NOW_TEXT, 'status', 'playing',
    'since', NOW_TEXT, 'first', first, 'turn', first, unpack(fields))
  set_player(m, '1', player, contact)
  recount('waiting', 'playing')
  append(id, '{"seq":1,"type":"started","first":' .. first .. tail .. '}', '')
  if not c[1] then return {} end
  local _, base = control_of(c[1])
  return notice(m, c[1], first, NOW_MS + base)
end

-- What a seeker's own token got, for a repeated seek: 'id:seat:until'.
local function recall(key)
  local prior = redis.call('GET', key)
  if prior then
    local id, seat, till = string.match(prior, '^(.*):(%d):(.*)$')
    if tonumber(till) >= NOW then return id, tonumber(seat) end
  end
  return nil, nil
end

-- For `span` seconds (default the grace period; a correspondence seek's patience).
local function remember(key, id, seat, span)
  span = span or GRACE
  redis.call('SET', key, id .. ':' .. int(seat) .. ':' .. string.format('%.17g', NOW + span),
    'PX', math.ceil(span * 1000))
end
"""

GAME_PRELUDE = r"""
-- GRACE is how long a seeker's memo lasts: the grace period, or a correspondence seek's
-- patience (relay.players.patience).
local QUEUE, WAITING
local function begin_game(KEYS, ARGV)
  QUEUE, WAITING = KEYS[1], KEYS[2]
  NOW_TEXT = ARGV[1]
  NOW, GRACE = tonumber(NOW_TEXT), tonumber(ARGV[2])
end
"""

POLL = r"""
-- ARGV[6..7] = token digest ('' for a spectator), after
local DIGEST = ARGV[6]
local m = KEYS[1]
local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'last')
local status = f[1]
if not status then return {'e', 'match/unknown'} end
if status == 'expired' then return {'e', 'match/expired'} end
local seat = -1
if DIGEST ~= '' then
  seat = seat_of(m, DIGEST, f[2], f[3])
  if not seat then return {'e', 'auth/bad_token'} end
  redis.call('HSET', m, SEEN[seat], NOW_TEXT)
end
-- A reader past the log's end saw events the store has lost since (a failover).
if tonumber(ARGV[7]) > tonumber(f[4]) then return {'e', 'match/behind', f[4]} end
return {'ok', seat, redis.call('LRANGE', ekey(ID), ARGV[7], -1), status}
"""
"""Reads the log above `after`; a seat's read also marks it present."""

ACT = r"""
-- ARGV[6..14] = token digest, kind, after (-1 for none), write digest, agree (1/0),
--               end (1/0), the move as a JSON string, most events a log may hold,
--               after + 1 as text (the number of the event a move or pass makes)
local DIGEST, KIND = ARGV[6], ARGV[7]
local AFTER = tonumber(ARGV[8])
local WRITE, AGREE, END = ARGV[9], ARGV[10] == '1', ARGV[11] == '1'
local m = KEYS[1]
local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'turn', 'ender', 'last', 'tc', 'l0',
  'l1', 'tat')
local status = f[1]
if not status then return {'e', 'match/unknown'} end
local seat = seat_of(m, DIGEST, f[2], f[3])
if not seat then return {'e', 'auth/bad_token'} end
local SEEN_SEAT = SEEN[seat]
-- Every write marks its seat present: a move or pass with the fields it sets anyway.
if KIND ~= 'move' and KIND ~= 'pass' then redis.call('HSET', m, SEEN_SEAT, NOW_TEXT) end
local function refuse(...)
  if KIND == 'move' or KIND == 'pass' then redis.call('HSET', m, SEEN_SEAT, NOW_TEXT) end
  return {'e', ...}
end

if KIND == 'cancel' then
  if status == 'expired' then return {'ok', 0} end
  if status ~= 'waiting' then return {'e', 'match/started'} end
  local game, version = expire(ID)
  return {'ok', 0, game, version}
end
if status == 'expired' then return refuse('match/expired') end
if status == 'waiting' then return refuse('match/not_started') end
-- 'timeout' once the seat to move is found out of time by this write (the match ends then).
local LATE = nil
if status == 'playing' then
  local late = out_of_time(f[7], f[4], f[8], f[9], f[10])
  if late then
    finish(ID, 'timeout', late, '')
    status, f[6], LATE = 'finished', int(tonumber(f[6]) + 1), 'timeout'
  end
end

local done = DIGITS[seat] .. ':' .. KIND .. ':' .. WRITE
local last = tonumber(f[6])
if KIND == 'resign' then
  if status == 'finished' then
    if wrote(m, seat, f[6], DIGITS[seat] .. ':resign:') then return {'ok', last} end
    return {'e', 'match/finished', LATE}
  end
  return {'ok', finish(ID, 'resigned', seat, done)}
end
if AFTER >= 0 and AFTER < last then
  if redis.call('HGET', m, 'w' .. DIGITS[seat]) == int(AFTER + 1) .. '|' .. done then
    if KIND == 'move' or KIND == 'pass' then redis.call('HSET', m, SEEN_SEAT, NOW_TEXT) end
    return {'ok', AFTER + 1}
  end
  if status == 'finished' then return refuse('match/finished', LATE) end
  return refuse('turn/stale', last)
end
if AFTER ~= last then return refuse('turn/stale', last) end
if status == 'finished' then return refuse('match/finished', LATE) end
if KIND == 'confirm' then
  if status == 'playing' and not AGREE then
    -- The seat to move disputes the partner's last move or pass.
    local other = 1 - seat
    if wrote(m, other, f[6], DIGITS[other] .. ':move:')
        or wrote(m, other, f[6], DIGITS[other] .. ':pass:') then
      return {'ok', finish(ID, 'disputed', seat, done)}
    end
  end
  if status ~= 'ending' then return {'e', 'match/not_ending'} end
  if seat == tonumber(f[5]) then return {'e', 'turn/not_yours', 'confirm'} end
  local reason = 'disputed'
  if AGREE then reason = 'agreed' end
  return {'ok', finish(ID, reason, seat, done)}
end
if status == 'ending' then return refuse('match/ending') end
if tonumber(f[4]) ~= seat then return refuse('turn/not_yours') end
if last >= tonumber(ARGV[13]) then return refuse('match/too_long') end
local SEQ = ARGV[14]
local fields = {SEEN_SEAT, NOW_TEXT, 'turn', DIGITS[1 - seat]}
local tail = ''
if f[7] then
  -- Charges the mover from its turn's start; Fischer adds the increment, a deadline control
  -- gives the next turn its full time again.
  local kind, base, inc = control_of(f[7])
  local left = tonumber(f[8 + seat]) - (NOW_MS - tonumber(f[10]))
  local keep = base
  if kind == 'fischer' then
    left = left + inc
    keep = left
  end
  table.insert(fields, 'l' .. DIGITS[seat])
  table.insert(fields, int(keep))
  table.insert(fields, 'tat')
  table.insert(fields, int(NOW_MS))
  tail = ',"left":' .. left_text(left)
  if not (KIND == 'move' and END) then
    schedule_lt(ID, (NOW_MS + tonumber(f[9 - seat])) / 1000)
  end
end
-- A correspondence match tells the partner it has the turn (or a game-over move to confirm).
local function told(answer)
  if not is_deadline(f[7]) then return answer end
  local due = NOW_MS + tonumber(f[9 - seat])
  if KIND == 'move' and END then due = NOW_MS + patience(f[7]) * 1000 end
  for _, value in ipairs(notice(m, f[7], DIGITS[1 - seat], due)) do
    table.insert(answer, value)
  end
  return answer
end
if KIND == 'pass' then
  local event = '{"seq":' .. SEQ .. ',"type":"pass","seat":' .. DIGITS[seat] .. tail .. '}'
  return told({'ok', append(ID, event, done, fields, SEQ)})
end
local ending = 'false'
if END then
  ending = 'true'
  recount(status, 'ending')
  for _, value in ipairs({'status', 'ending', 'ender', DIGITS[seat], 'since', NOW_TEXT}) do
    table.insert(fields, value)
  end
end
local event = '{"seq":' .. SEQ .. ',"type":"move","seat":' .. DIGITS[seat]
  .. ',"move":' .. ARGV[12] .. ',"end":' .. ending .. tail .. '}'
return told({'ok', append(ID, event, done, fields, SEQ)})
"""
"""Applies a seat's move, pass, confirm, resign or cancel, once. A cancel that expires the
match answers its game and version, whose waiting list the store then updates; a move or
pass of a correspondence match answers the partner's turn notice after its number, when the
partner has a contact (a retry answered from its write digest answers none)."""

OPEN = r"""
-- ARGV[6..13] = token digest, game, version, room ('' for none), time control key and JSON
--               ('' for none), player key digest and contact ('' for none)
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'h0') == ARGV[6] then return {'ok'} end
  return {'e', 'collision'}
end
open(ID, ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13])
return {'ok'}
"""
"""Opens a waiting match with one seat taken (a retry of the same opening is answered ok)."""

JOIN = r"""
-- ARGV[6..9] = token digest, first seat, player key digest and contact ('' for none)
local PLAYER = ARGV[8]
local f = redis.call('HMGET', KEYS[1], 'status', 'h0', 'h1', 'seen0', 'tc', 'p0')
if not f[1] then return {'skip'} end
if f[2] == ARGV[6] then return {'ok', 0} end
if f[3] == ARGV[6] then return {'ok', 1} end
if f[1] ~= 'waiting' then return {'skip'} end
if tonumber(f[4]) + patience(f[5]) < NOW then
  expire(ID)
  return {'skip'}
end
if PLAYER ~= '' and f[6] == PLAYER then return {'same'} end
local answer = {'ok', 1}
for _, value in ipairs(join(ID, ARGV[6], ARGV[7], PLAYER, ARGV[9])) do
  table.insert(answer, value)
end
return answer
"""
"""Takes the second seat of a waiting match (or answers the seat this token already holds),
then the first mover's turn notice, if any; 'skip' when the match can no longer be joined,
'same' when its seat was taken with the seeker's own player key."""

ROOM = r"""
-- KEYS[1] = the room's key, KEYS[2] = the seeker's memo key (both in ID's shard)
-- ARGV[6..16] = game, version, room, token digest, first, '1' when the token is the seeker's
--               own, '1' when a new match may be opened (the waiting limit was checked),
--               the time control's key and JSON, the player key digest and contact ('' for
--               none)
local ROOM_KEY, MEMO = KEYS[1], KEYS[2]
local GAME, VERSION, ROOM_NAME, DIGEST, FIRST = ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10]
local OWN, MAY_OPEN = ARGV[11] == '1', ARGV[12] == '1'
local CONTROL, CONTROL_JSON, PLAYER, CONTACT = ARGV[13], ARGV[14], ARGV[15], ARGV[16]

if OWN then
  local id, seat = recall(MEMO)
  if id and redis.call('EXISTS', mkey(id)) == 1 then return {'ok', id, seat, ''} end
end
local dropped = ''
local held = redis.call('GET', ROOM_KEY)
if held then
  local f = redis.call('HMGET', mkey(held), 'status', 'seen0', 'version', 'tc', 'p0')
  local status = f[1]
  if status == 'waiting' and tonumber(f[2]) + patience(f[4]) < NOW then
    expire(held)
    dropped, status = held, 'expired'
  end
  if status == 'waiting' then
    if PLAYER ~= '' and f[5] == PLAYER then return {'e', 'room/same_player'} end
    if f[3] ~= VERSION then return {'e', 'room/version_mismatch', f[3]} end
    if (f[4] or '') ~= CONTROL then return {'e', 'room/control_mismatch', f[4] or ''} end
    local answer = {'ok', held, 1}
    for _, value in ipairs(join(held, DIGEST, FIRST, PLAYER, CONTACT)) do
      table.insert(answer, value)
    end
    table.insert(answer, dropped)
    if OWN then remember(MEMO, held, 1, patience(CONTROL)) end
    return answer
  end
  if status == 'playing' or status == 'ending' then return {'e', 'room/full'} end
end
if not MAY_OPEN then return {'open', dropped} end
if redis.call('EXISTS', mkey(ID)) == 1 then return {'e', 'collision'} end
open(ID, DIGEST, GAME, VERSION, ROOM_NAME, CONTROL, CONTROL_JSON, PLAYER, CONTACT)
redis.call('SET', ROOM_KEY, ID)
if OWN then remember(MEMO, ID, 0, patience(CONTROL)) end
return {'ok', ID, 0, dropped}
"""
"""Seeks in a private room: joins the match waiting in it, or opens one when allowed ('open'
asks the caller to check the waiting limit first). Answers the match, the seat, the first
mover's turn notice when it joined (see JOIN), and last the id of a stale match it dropped
from the room ('' for none), which the caller unlists."""

REAP = r"""
-- KEYS[1] = the shard's deadlines; ARGV[2] = '' (no one match); ARGV[6] = most to look at
local due = redis.call('ZRANGEBYSCORE', DEADLINES, '-inf', '(' .. NOW_TEXT,
  'LIMIT', 0, tonumber(ARGV[6]))
local changed, expired, gone = 0, {}, {}
for _, id in ipairs(due) do
  local f = redis.call('HMGET', mkey(id), 'status', 'seen0', 'seen1', 'since', 'ender',
    'tc', 'turn', 'l0', 'l1', 'tat')
  local status = f[1]
  local seen0, seen1, since = tonumber(f[2]), tonumber(f[3]), tonumber(f[4])
  local late = nil
  if status == 'playing' then late = out_of_time(f[6], f[7], f[8], f[9], f[10]) end
  if not status then
    redis.call('ZREM', DEADLINES, id)
  elseif status == 'waiting' and seen0 + patience(f[6]) < NOW then
    local game, version = expire(id)
    table.insert(expired, id)
    table.insert(expired, game)
    table.insert(expired, version)
    schedule(id, NOW + KEEP)
    changed = changed + 1
  elseif late then
    finish(id, 'timeout', late, '')
    schedule(id, NOW + KEEP)
    changed = changed + 1
  elseif status == 'playing' and not is_deadline(f[6])
      and math.min(seen0, seen1) + GRACE < NOW then
    local absent = 0
    if seen1 < seen0 then absent = 1 end
    finish(id, 'abandoned', absent, '')
    schedule(id, NOW + KEEP)
    changed = changed + 1
  elseif status == 'ending' and deadline(id) < NOW then
    finish(id, 'unconfirmed', 1 - tonumber(f[5]), '')
    schedule(id, NOW + KEEP)
    changed = changed + 1
  elseif (status == 'finished' or status == 'expired') and since + KEEP < NOW then
    local p = redis.call('HMGET', mkey(id), 'p0', 'p1')
    if p[1] or p[2] then
      table.insert(gone, id)
      table.insert(gone, p[1] or '')
      table.insert(gone, p[2] or '')
    end
    redis.call('DEL', mkey(id), ekey(id))
    redis.call('ZREM', DEADLINES, id)
    recount(status, false)
    changed = changed + 1
  else
    schedule(id, deadline(id))
  end
end
return {changed, #due, expired, gone}
"""
"""Ends abandoned, timed-out and unconfirmed matches, drops silent seekers, forgets old
matches, in one shard; answers what it changed, how many it looked at, the dropped seeks
(id, game, version), which the caller unlists, and the forgotten matches seated with player
keys (id, digest of seat 0's key, of seat 1's, '' for none), which the caller unlists from
their players' lists."""

PAIR = r"""
-- KEYS[3] = the seeker's memo key; ARGV[3..6] = most waiting matches of the game,
-- '1' when the token is the seeker's own, the id of a match that could not be joined (''),
-- the id of a match the seeker skipped as its own player key's ('')
local MEMO, MAX_WAITING, OWN, FAILED = KEYS[3], tonumber(ARGV[3]), ARGV[4] == '1', ARGV[5]
if OWN and ARGV[6] ~= '' and recall(MEMO) == ARGV[6] then redis.call('DEL', MEMO) end
if FAILED ~= '' then
  redis.call('ZREM', WAITING, FAILED)
  if OWN and recall(MEMO) == FAILED then redis.call('DEL', MEMO) end
elseif OWN then
  local id, seat = recall(MEMO)
  if id then return {'memo', id, seat} end
end
local id = redis.call('LPOP', QUEUE)
if id then
  if OWN then remember(MEMO, id, 1) end
  return {'join', id}
end
if redis.call('ZCARD', WAITING) >= MAX_WAITING then return {'e', 'limit/waiting'} end
return {'open'}
"""
"""Picks the oldest match waiting in the game's queue for the seeker to join ('join'), or says
none is ('open'), or answers what the seeker's own token got before ('memo')."""

PUSH = r"""
-- KEYS[3] = the seeker's memo key; ARGV[3..5] = the id of the match just opened,
-- '1' when the token is the seeker's own, the id of a match the seeker skipped as its own
-- player key's ('')
local MEMO, ID, OWN = KEYS[3], ARGV[3], ARGV[4] == '1'
if OWN and ARGV[5] ~= '' and recall(MEMO) == ARGV[5] then redis.call('DEL', MEMO) end
if OWN then
  local id, seat = recall(MEMO)
  if id and id ~= ID then return {'memo', id, seat} end
end
local other = redis.call('LPOP', QUEUE)
if other then
  if OWN then remember(MEMO, other, 1) end
  return {'join', other}
end
redis.call('RPUSH', QUEUE, ID)
redis.call('ZADD', WAITING, NOW_TEXT, ID)
if OWN then remember(MEMO, ID, 0) end
return {'ok'}
"""
"""Queues a match just opened, unless another seeker queued one meanwhile ('join' it instead)
or the seeker's own token already got a seat ('memo')."""

ENSURE = r"""
-- ARGV[3] = the id of a match waiting for a player
if redis.call('ZSCORE', WAITING, ARGV[3]) then return 0 end
redis.call('RPUSH', QUEUE, ARGV[3])
redis.call('ZADD', WAITING, NOW_TEXT, ARGV[3])
return 1
"""
"""Queues a waiting match again if its queueing was lost (its opener stopped between the two
steps of a seek); answers 1 when it did."""

REQUEUE = r"""
-- ARGV[3..] = ids of matches taken off the queue's head, oldest first
for index = #ARGV, 3, -1 do
  if redis.call('ZSCORE', WAITING, ARGV[index]) then redis.call('LPUSH', QUEUE, ARGV[index]) end
end
return 0
"""
"""Puts back at the queue's head the waiting matches a seeker took off it but did not join
(its own player key's seeks), in their order, those still waiting."""

UNLIST = r"""
-- KEYS[1..2] = the game's queue and waiting set; ARGV[1] = a match no longer waiting
redis.call('LREM', KEYS[1], 0, ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 0
"""
"""Removes a match that no longer waits from its game's queue and waiting set."""

RESERVE = r"""
-- KEYS[1] = the game's waiting set; ARGV[1..3] = now, most waiting matches, the new match id
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return {'e', 'limit/waiting'} end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
return {'ok'}
"""
"""Counts a room match about to be opened toward the game's waiting limit, if it allows."""

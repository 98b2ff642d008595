-- Set at the start of each call (functions run one at a time). ARGV[4] is the store's
-- timings, 'grace:hold:seek_grace:claim_after:away:pair_window'
-- (relay.store.redis.connection.timings).
local TAGGED, ID, NOW_TEXT, NOW, NOW_MS, GRACE, KEEP, DEADLINES, COUNTS
local HOLD, SEEK_GRACE, CLAIM, AWAY, PAIR_WINDOW
local function begin_match(ARGV)
  TAGGED, ID, NOW_TEXT = ARGV[1], ARGV[2], ARGV[3]
  local grace, hold, seek, claim, away, pair = string.match(ARGV[4],
    '^([^:]+):([^:]+):([^:]+):([^:]+):([^:]+):([^:]+)$')
  NOW, GRACE, KEEP = tonumber(NOW_TEXT), tonumber(grace), tonumber(ARGV[5])
  HOLD, SEEK_GRACE, CLAIM, AWAY = tonumber(hold), tonumber(seek), tonumber(claim), tonumber(away)
  PAIR_WINDOW = tonumber(pair)
  NOW_MS = math.floor(NOW * 1000 + 0.5)
  DEADLINES, COUNTS = TAGGED .. 'deadlines', TAGGED .. 'counts'
end
local DIGITS = {[0] = '0', [1] = '1'}
local SEEN = {[0] = 'seen0', [1] = 'seen1'}

local function mkey(id) return TAGGED .. 'm:' .. id end
local function ekey(id) return TAGGED .. 'e:' .. id end
-- A match's chat (one JSON line per entry).
local function ckey(id) return TAGGED .. 'c:' .. id end
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

-- The turn notice of a seat given the turn in a match with a time control, as a reply's
-- tail: {'n', seat, contact, game, due in ms, player key digest, '1' for a deadline control};
-- {} without a control, or when the seat has neither a contact (told only with a deadline)
-- nor a player key.
local function notice(m, tc, seat, due_ms)
  if not tc or tc == '' then return {} end
  local c = redis.call('HMGET', m, 'c' .. seat, 'game', 'p' .. seat)
  local deadline = is_deadline(tc)
  if not c[3] and not (deadline and c[1]) then return {} end
  return {'n', seat, c[1] or '', c[2], int(due_ms), c[3] or '', deadline and '1' or '0'}
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

-- A table change: its version grows, and 't' on both of the match's event channels wakes
-- every wait on it (each waits on one of them), which then reads the table.
local function table_changed(id)
  redis.call('HINCRBY', mkey(id), 'tv', 1)
  redis.call('SPUBLISH', wkey(id, 0), 't')
  redis.call('SPUBLISH', wkey(id, 1), 't')
end

-- A seat that polled or wrote while shown away is here again.
local function back(m, id, seat)
  redis.call('HDEL', m, 'a' .. seat)
  table_changed(id)
end

-- Since when a seat that is not shown away holds no poll, or nil while it may hold one:
-- its last held poll ended with its client gone AWAY seconds ago (gone, when no poll or write
-- came since), or it began none for HOLD + AWAY seconds (relay.store.memory.table).
local function absent(seen, gone)
  seen = tonumber(seen)
  gone = tonumber(gone or '0')
  if gone >= seen and gone + AWAY <= NOW then return gone end
  if seen + HOLD + AWAY < NOW then return seen end
  return nil
end

-- When a seat that is not away may next be found absent (see absent).
local function absent_at(seen, gone)
  seen = tonumber(seen)
  gone = tonumber(gone or '0')
  local at = seen + HOLD + AWAY
  if gone >= seen then at = math.min(at, gone + AWAY) end
  return at
end

-- Whether a waiting seek's seeker is gone (relay.store.memory.registry's is_stale): paired, it
-- did not poll again within PAIR_WINDOW (a ghost); with a per-move deadline, it began no poll
-- for its patience; else its last held poll ended with its client gone SEEK_GRACE ago, or it
-- began none for HOLD + SEEK_GRACE (within GRACE).
local function seek_stale(m, seen0, tc)
  local paired = redis.call('HGET', m, 'pj')
  if paired and tonumber(paired) + PAIR_WINDOW < NOW then return true end
  seen0 = tonumber(seen0)
  if is_deadline(tc) then return seen0 + patience(tc) < NOW end
  local gone = tonumber(redis.call('HGET', m, 'g0') or '0')
  if gone >= seen0 and gone + SEEK_GRACE <= NOW then return true end
  return seen0 + math.min(GRACE, HOLD + SEEK_GRACE) < NOW
end

-- When a waiting seek may next be stale (see seek_stale).
local function seek_due(seen0, tc, gone)
  seen0 = tonumber(seen0)
  if is_deadline(tc) then return seen0 + patience(tc) end
  local at = seen0 + math.min(GRACE, HOLD + SEEK_GRACE)
  gone = tonumber(gone or '0')
  if gone >= seen0 then at = math.min(at, gone + SEEK_GRACE) end
  return at
end

-- When the reaper must look at a match. A seat's poll makes this later and nothing makes it
-- earlier, so the deadline a match is scheduled with at its opening is never late: the reaper
-- looks, finds the match alive and schedules it again.
local function deadline(id)
  local f = redis.call('HMGET', mkey(id), 'status', 'seen0', 'seen1', 'since', 'ender', 'tc',
    'turn', 'l0', 'l1', 'tat', 'g0', 'g1', 'a0', 'a1')
  local status = f[1]
  if status == 'waiting' then
    local at, paired = seek_due(f[2], f[6], f[11]), redis.call('HGET', mkey(id), 'pj')
    if paired then at = math.min(at, tonumber(paired) + PAIR_WINDOW) end
    return at
  end
  -- A seat not shown away is looked at when it may be found absent.
  local presence = math.huge
  if status == 'playing' or status == 'ending' then
    for seat = 0, 1 do
      if not f[13 + seat] then presence = math.min(presence, absent_at(f[2 + seat], f[11 + seat])) end
    end
  end
  if status == 'playing' then
    local at = math.min(tonumber(f[2]), tonumber(f[3])) + GRACE
    if f[6] and f[7] and f[7] ~= '' then
      local due = (tonumber(f[10]) + tonumber(f[8 + tonumber(f[7])])) / 1000
      -- A correspondence match never ends for want of polls: only its clock matters.
      if is_deadline(f[6]) then at = due else at = math.min(at, due) end
    end
    return math.min(at, presence)
  end
  if status == 'ending' then
    return math.min(presence,
      math.min(tonumber(f[4]), tonumber(f[3 - tonumber(f[5])])) + patience(f[6]))
  end
  return tonumber(f[4]) + KEEP
end

-- Appends an event; the sharded notification carries it ('seq event') on the channel of its
-- number's parity, so a poll waiting for exactly that event can answer with it.
-- `done` is the write that made the event ('seat:kind:digest', '' for the relay's own): kept
-- as its seat's latest write, 'w0' or 'w1' = 'seq|done', to answer that write sent again.
-- `fields` are more fields of the match's hash to set with 'last'.
-- `seq` is the event's number as text, when the caller knows it.
-- `quiet`: the event is not published (the next one, appended in the same script, is, on
-- both channels: a wait for this one hears it, and reads the log for both).
local function append(id, event, done, fields, seq, quiet)
  local number = redis.call('RPUSH', ekey(id), event)
  seq = seq or int(number)
  if done == '' then
    redis.call('HSET', mkey(id), 'last', seq, unpack(fields or {}))
  else
    redis.call('HSET', mkey(id), 'last', seq, 'w' .. string.sub(done, 1, 1), seq .. '|' .. done,
      unpack(fields or {}))
  end
  if quiet then return number end
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

-- Counts one write of a seat's kind ('field' of the match's hash: the time its next one is
-- due) against `per_minute` a minute in bursts of as many (relay.core.throttle.admit); answers
-- nil, or the seconds to wait past it.
local function throttled(m, field, per_minute)
  local step = 60 / per_minute
  local due = tonumber(redis.call('HGET', m, field) or '0')
  local start = math.max(due, NOW)
  local wait = start - NOW - (per_minute - 1) * step
  -- A millisecond is rounding (relay.core.throttle.ROUNDING), not a write too early.
  if wait > 1e-3 then return wait end
  redis.call('HSET', m, field, string.format('%.17g', start + step))
  return nil
end

-- Marks a finished match between two player keys pending, as finish() does, when the relay
-- that ended it marked nothing ('rate' unset: a release before ratings, during a rolling
-- upgrade); answers whether it did. Its rating is then settled as any (docs/ratings.md).
local function mark_unrated(id)
  local m = mkey(id)
  local r = redis.call('HMGET', m, 'rate', 'p0', 'p1', 'cas')
  if r[1] or r[4] or not (r[2] and r[3]) then return false end
  redis.call('HSET', m, 'rate', 'pending')
  redis.call('ZADD', TAGGED .. 'torate', NOW_TEXT, id)
  return true
end

-- Ends a match: its ended event names the reason and seat, then `tail` (a dispute's or a
-- verdict's fields, as JSON text built by relay.core.verdicts; nil for none). `after_quiet`:
-- the event before it was appended quietly: the ended event is published on its channel too.
local function finish(id, reason, seat, done, tail, after_quiet)
  local m = mkey(id)
  local f = redis.call('HMGET', m, 'status', 'game', 'room', 'last', 'p0', 'p1', 'cas')
  recount(f[1], 'finished')
  if f[5] and f[6] and not f[7] then
    -- Both seats have player keys (and the match may be rated, 'cas' unset): a rating to
    -- settle, once (docs/ratings.md).
    redis.call('HSET', m, 'rate', 'pending')
    redis.call('ZADD', TAGGED .. 'torate', NOW_TEXT, id)
  end
  redis.call('HINCRBY', COUNTS, 'ended:' .. reason, 1)
  redis.call('HSET', m, 'status', 'finished', 'since', NOW_TEXT, 'turn', '')
  -- A seat whose time ran out has none left: the match's clock reads so.
  if reason == 'timeout' then redis.call('HSET', m, 'l' .. int(seat), 0) end
  free_room(id, f[2], f[3])
  local event = '{"seq":' .. int(tonumber(f[4]) + 1) .. ',"type":"ended","reason":"'
    .. reason .. '","seat":' .. int(seat) .. (tail or '') .. '}'
  local number = append(id, event, done)
  if after_quiet then
    redis.call('SPUBLISH', wkey(id, number - 1), int(number) .. ' ' .. event)
  end
  return number
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
local function open(id, digest, game, version, room, control, json, player, contact, name,
    blocks)
  local m = mkey(id)
  if name and name ~= '' then redis.call('HSET', m, 'n0', name) end
  if blocks and blocks ~= '' then redis.call('HSET', m, 'bk', blocks) end
  redis.call('HSET', m, 'game', game, 'version', version, 'status', 'waiting', 'h0', digest,
    'seen0', NOW_TEXT, 'seen1', NOW_TEXT, 'since', NOW_TEXT, 'last', 0, 'turn', '', 'first', '')
  if room ~= '' then redis.call('HSET', m, 'room', room) end
  if control ~= '' then redis.call('HSET', m, 'tc', control, 'tcj', json) end
  set_player(m, '0', player, contact)
  recount(false, 'waiting')
  schedule(id, seek_due(NOW, control))
end

-- Whether a waiting seat (its key's digest, and `bk`: the digests it blocks, comma-joined)
-- and a seeker (its key's digest and the digests it blocks) refuse each other: either one
-- blocked the other, so they are never paired.
local function refuses(waiting, bk, seeker, blocks)
  if seeker == '' or not waiting or waiting == '' then return false end
  return string.find(',' .. blocks .. ',', ',' .. waiting .. ',', 1, true) ~= nil
    or string.find(',' .. (bk or '') .. ',', ',' .. seeker .. ',', 1, true) ~= nil
end

-- Takes the second seat and starts play; returns the first mover's turn notice (see notice).
-- Starts a waiting match whose seat 1 is taken: `first` moves first. Answers the first
-- mover's turn notice, if any.
local function start(id, first)
  local m = mkey(id)
  local c = redis.call('HMGET', m, 'tc', 'tcj')
  local fields, tail = {'tat', int(NOW_MS)}, ''
  if c[1] then
    local due
    fields, tail, due = clock_start(c[1], c[2], NOW_MS)
    schedule_lt(id, due)
  end
  -- The reaper looks at a match when a seat may first be found absent.
  schedule_lt(id, NOW + HOLD + AWAY)
  redis.call('HDEL', m, 'pj', 'pf')
  redis.call('HSET', m, 'status', 'playing', 'since', NOW_TEXT, 'first', first, 'turn', first,
    unpack(fields))
  recount('waiting', 'playing')
  append(id, '{"seq":1,"type":"started","first":' .. first .. tail .. '}', '')
  if not c[1] then return {} end
  local _, base = control_of(c[1])
  return notice(m, c[1], first, NOW_MS + base)
end

-- Takes seat 1 of a waiting match; `first` is the first mover, drawn now. A match with a
-- per-move deadline starts at once (its waiting seeker may be away for days). Any other
-- starts when seat 0 polls again (started_by_poll), within the pair window or the reaper
-- expires it: 'p' on both channels answers seat 0's held polls empty meanwhile, so that a
-- live client polls again at once, and a ghost never does. Answers the turn notice, if any.
local function join(id, digest, first, player, contact, name)
  local m = mkey(id)
  if name and name ~= '' then redis.call('HSET', m, 'n1', name) end
  redis.call('HSET', m, 'h1', digest, 'seen1', NOW_TEXT)
  set_player(m, '1', player, contact)
  if is_deadline(redis.call('HGET', m, 'tc')) then return start(id, first) end
  redis.call('HSET', m, 'pj', NOW_TEXT, 'pf', first)
  schedule_lt(id, NOW + PAIR_WINDOW)
  redis.call('SPUBLISH', wkey(id, 0), 'p')
  redis.call('SPUBLISH', wkey(id, 1), 'p')
  return {}
end

-- Starts a paired match at a poll of its seat 0 (see join); answers its status then.
local function started_by_poll(m, id, seat, status)
  if status ~= 'waiting' or seat ~= 0 then return status end
  local first = redis.call('HGET', m, 'pf')
  if not first then return status end
  start(id, first)
  return 'playing'
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

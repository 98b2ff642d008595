-- Reads a match's rematch, or has a seat offer or decline one (relay.rematch.step).
-- KEYS[1..2] = the match's hash, its rematch hash
-- ARGV[1..8] = now, grace, keep, token digest ('' to read as a spectator), op (read, offer,
--              decline), id for a new match, the rematch's channel, the match's id
local M, X = KEYS[1], KEYS[2]
local NOW_TEXT = ARGV[1]
local NOW, GRACE, KEEP = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local DIGEST, OP = ARGV[4], ARGV[5]
local f = redis.call('HMGET', M, 'status', 'h0', 'h1', 'first', 'game', 'version', 'tc', 'tcj',
  'p0', 'p1', 'c0', 'c1', 'n0', 'n1', 'cas')
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
  f[7] or '', f[8] or '', f[9] or '', f[10] or '', f[11] or '', f[12] or '', f[13] or '',
  f[14] or '', f[15] or ''}

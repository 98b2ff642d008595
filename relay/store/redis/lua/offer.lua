-- Has a seat offer a draw or ask a takeback at the position after event `after`, or decline
-- the partner's standing offer (withdraw its own); relay.store.memory.table says the rules.
-- Match hash fields: 'ok' (kind), 'ob' (by), 'oa' (at), 'os' (state), 'oc' (takeback count),
-- 'uz' (events that are undo events or moves and passes they took back).
-- A seat makes at most PACE offers and withdrawals a minute ('od0', 'od1': when its next is
-- due); declining the partner's offer is not counted.
-- ARGV[6..10] = token digest, op ('offer' or 'decline'), kind, after, PACE
local DIGEST, OP, KIND, AFTER = ARGV[6], ARGV[7], ARGV[8], tonumber(ARGV[9])
local PACE = tonumber(ARGV[10])
local m = KEYS[1]
local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'turn', 'last', 'ok', 'ob', 'oa', 'os',
  'uz', 'a0', 'a1')
if not f[1] then return {'e', 'match/unknown'} end
if f[1] == 'expired' then return {'e', 'match/expired'} end
local seat = seat_of(m, DIGEST, f[2], f[3])
if not seat then return {'e', 'auth/bad_token'} end
redis.call('HSET', m, SEEN[seat], NOW_TEXT)
if f[11 + seat] then back(m, ID, seat) end
local last, playing = tonumber(f[5]), f[1] == 'playing'
local state = f[9]
if state == 'offered' and (tonumber(f[8]) ~= last or not playing) then state = 'lapsed' end
if OP == 'decline' then
  if state == 'offered' then
    local new = 'declined'
    if tonumber(f[7]) == seat then
      new = 'withdrawn'
      local wait = throttled(m, 'od' .. DIGITS[seat], PACE)
      if wait then return {'e', 'offer/too_fast', string.format('%.3f', wait)} end
    end
    redis.call('HSET', m, 'os', new)
    table_changed(ID)
  end
  return {'ok'}
end
if not playing then return {'e', 'offer/not_playing'} end
if AFTER ~= last then return {'e', 'turn/stale', last} end
if state == 'offered' then
  if tonumber(f[7]) == seat and f[6] == KIND then return {'ok'} end
  return {'e', 'offer/pending'}
end
if state == 'declined' and tonumber(f[8]) == last and tonumber(f[7]) == seat
    and f[6] == KIND then
  return {'e', 'offer/declined'}
end
local count = 0
if KIND == 'takeback' then
  -- Its own last move, and the partner's reply when there is one (it is then its turn).
  count = 1
  if tonumber(f[4]) == seat then count = 2 end
  if last - 1 - tonumber(f[10] or '0') < count then return {'e', 'takeback/none'} end
end
local wait = throttled(m, 'od' .. DIGITS[seat], PACE)
if wait then return {'e', 'offer/too_fast', string.format('%.3f', wait)} end
redis.call('HSET', m, 'ok', KIND, 'ob', DIGITS[seat], 'oa', int(last), 'os', 'offered',
  'oc', int(count))
table_changed(ID)
return {'ok'}

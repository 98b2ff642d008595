-- Adds a line said by a seat to a match's chat (a list of JSON lines beside its log), and
-- answers its number; the same line said again at the same position within `same` seconds
-- answers the number it got (its answer was lost).
-- A seat posts at most PACE lines a minute ('cd0', 'cd1': when its next is due).
-- ARGV[6..10] = token digest, the text as a JSON string, most lines kept, `same` seconds, PACE
local DIGEST, TEXT, MOST, SAME = ARGV[6], ARGV[7], tonumber(ARGV[8]), tonumber(ARGV[9])
local PACE = tonumber(ARGV[10])
local m = KEYS[1]
local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'last', 'a0', 'a1')
if not f[1] then return {'e', 'match/unknown'} end
if f[1] == 'expired' then return {'e', 'match/expired'} end
local seat = seat_of(m, DIGEST, f[2], f[3])
if not seat then return {'e', 'auth/bad_token'} end
if f[1] == 'waiting' then return {'e', 'match/not_started'} end
redis.call('HSET', m, SEEN[seat], NOW_TEXT)
if f[5 + seat] then back(m, ID, seat) end
local c = ckey(ID)
local count = redis.call('LLEN', c)
local same = ',"seat":' .. DIGITS[seat] .. ',"text":' .. TEXT .. ',"at":' .. f[4] .. ',"time":'
for index = count - 1, math.max(0, count - 4), -1 do
  local line = redis.call('LINDEX', c, index)
  local at = string.find(line, same, 1, true)
  if at then
    local said = tonumber(string.match(line, '"time":([^}]+)}$'))
    if NOW - said <= SAME then return {'ok', index + 1} end
    break
  end
end
if count >= MOST then return {'e', 'chat/full'} end
local wait = throttled(m, 'cd' .. DIGITS[seat], PACE)
if wait then return {'e', 'chat/too_fast', string.format('%.3f', wait)} end
local n = count + 1
redis.call('RPUSH', c, '{"n":' .. int(n) .. same .. NOW_TEXT .. '}')
table_changed(ID)
return {'ok', n}

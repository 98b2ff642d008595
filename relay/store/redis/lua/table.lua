-- Reads a match's table: the reader's seat (-1 for a spectator), then the fields the store
-- makes it from (relay.store.redis.table), then the chat lines above `chat`.
-- ARGV[6..7] = token digest ('' for a spectator), chat
local DIGEST = ARGV[6]
local m = KEYS[1]
local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'tv', 'n0', 'n1', 'a0', 'a1', 'seen0',
  'seen1', 'ok', 'ob', 'oa', 'os', 'oc', 'last', 'tc', 'tat')
if not f[1] then return {'e', 'match/unknown'} end
if f[1] == 'expired' then return {'e', 'match/expired'} end
local seat = -1
if DIGEST ~= '' then
  seat = seat_of(m, DIGEST, f[2], f[3])
  if not seat then return {'e', 'auth/bad_token'} end
end
local values = {}
for index = 4, 18 do values[index - 3] = f[index] or '' end
return {'ok', seat, f[1], values, redis.call('LRANGE', ckey(ID), tonumber(ARGV[7]), -1)}

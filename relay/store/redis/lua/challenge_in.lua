-- Adds an open challenge in the challenged key's own slot, unless the key holds one open from
-- the same challenger (challenge/open), or as many open as it keeps, or as many from keys it
-- does not follow (challenge/full); answers {'ok'}.
-- KEYS[1..5] = the key's incoming set (id -> when it is forgotten, ms), the challenges' terms
--              (id -> JSON), their states (id -> state TAB until TAB sender TAB match TAB
--              first TAB settled TAB name), the ids it follows (hash), its hash (v: version)
-- ARGV[1..10] = id, challenger's public id, now (ms), until (ms), terms JSON, open most,
--               strangers most, listed most, kept (ms), channel
local IN, R, S, F, K = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local NOW, SENDER = tonumber(ARGV[3]), ARGV[2]
local gone = redis.call('ZRANGEBYSCORE', IN, '-inf', NOW)
if #gone > 0 then
  redis.call('ZREMRANGEBYSCORE', IN, '-inf', NOW)
  redis.call('HDEL', R, unpack(gone))
  redis.call('HDEL', S, unpack(gone))
end
local ids = redis.call('ZRANGE', IN, 0, -1)
local count, strangers, settled = 0, 0, {}
for _, id in ipairs(ids) do
  local st = redis.call('HGET', S, id) or ''
  local state, untl, sender = string.match(st, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t')
  if state == 'open' and tonumber(untl) > NOW then
    if sender == SENDER then return {'e', 'challenge/open'} end
    count = count + 1
    if redis.call('HEXISTS', F, sender) == 0 then strangers = strangers + 1 end
  else
    table.insert(settled, id)
  end
end
if count >= tonumber(ARGV[6]) then return {'e', 'challenge/full'} end
if redis.call('HEXISTS', F, SENDER) == 0 and strangers >= tonumber(ARGV[7]) then
  return {'e', 'challenge/full'}
end
-- Past the listed most, the oldest settled challenges go first.
local extra = #ids + 1 - tonumber(ARGV[8])
for i = 1, math.min(extra, #settled) do
  redis.call('ZREM', IN, settled[i])
  redis.call('HDEL', R, settled[i])
  redis.call('HDEL', S, settled[i])
end
local UNTIL = tonumber(ARGV[4])
redis.call('ZADD', IN, UNTIL + tonumber(ARGV[9]), ARGV[1])
redis.call('HSET', R, ARGV[1], ARGV[5])
redis.call('HSET', S, ARGV[1], 'open\t' .. ARGV[4] .. '\t' .. SENDER .. '\t\t\t\t')
local last = redis.call('ZRANGE', IN, -1, -1, 'WITHSCORES')
local ttl = math.max(1, tonumber(last[2]) - NOW)
for _, key in ipairs({IN, R, S}) do redis.call('PEXPIRE', key, ttl) end
-- The version: one more, and at least now (ms): it never goes back, even past the hash's expiry.
local v = math.max(tonumber(redis.call('HGET', K, 'v') or '0') + 1, NOW)
redis.call('HSET', K, 'v', string.format('%d', v))
if redis.call('PTTL', K) < 345600000 then redis.call('PEXPIRE', K, 345600000) end
redis.call('SPUBLISH', ARGV[10], string.format('%d', v))
return {'ok'}

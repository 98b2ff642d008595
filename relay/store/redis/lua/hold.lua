-- Keeps a pending item (a passkey challenge or a transfer code) in a scope until a time, unless
-- the scope holds as many items not expired, or the item already; answers 1, or 0 (nothing kept).
-- KEYS[1] = the scope's sorted set (item -> until, ms), KEYS[2] = its hash (item -> value)
-- ARGV[1] = item, ARGV[2] = value, ARGV[3] = until (ms), ARGV[4] = now (ms), ARGV[5] = most
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
if #gone > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
  redis.call('HDEL', KEYS[2], unpack(gone))
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) or redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
local ttl = math.max(1, tonumber(last[2]) - tonumber(ARGV[4]))
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1

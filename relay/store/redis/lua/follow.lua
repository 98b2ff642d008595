-- Follows an id, or stops following it, in the following key's own slot; answers 1, or 0 when
-- it follows as many others as it may.
-- KEYS[1..2] = the key's follows (id -> JSON), their order (sorted set: id -> when, ms)
-- ARGV[1..5] = id, JSON ('' to stop following), when (ms), most, seconds to keep them
local F, O = KEYS[1], KEYS[2]
if ARGV[2] == '' then
  redis.call('HDEL', F, ARGV[1])
  redis.call('ZREM', O, ARGV[1])
  return 1
end
if redis.call('HEXISTS', F, ARGV[1]) == 0 and redis.call('HLEN', F) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('HSET', F, ARGV[1], ARGV[2])
redis.call('ZADD', O, ARGV[3], ARGV[1])
redis.call('EXPIRE', F, ARGV[5])
redis.call('EXPIRE', O, ARGV[5])
return 1

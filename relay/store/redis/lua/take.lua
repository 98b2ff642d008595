-- Takes a pending item once: answers its value, or nil when it is not there or expired.
-- KEYS[1], KEYS[2] = the scope's sorted set and hash (as HOLD's); ARGV[1] = item, ARGV[2] = now (ms)
local ends = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not ends then return false end
local value = redis.call('HGET', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
if tonumber(ends) <= tonumber(ARGV[2]) then return false end
return value

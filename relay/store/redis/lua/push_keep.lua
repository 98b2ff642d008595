-- Keeps a player key's push subscription, renewed now, dropping its least recently renewed
-- past the most it may have; both keys expire when none is renewed for KEEP. Answers how many
-- the key has.
-- KEYS[1] = the key's subscriptions (hash: endpoint -> data), KEYS[2] = when each was renewed
-- (sorted set: endpoint -> ms); ARGV[1] = endpoint, ARGV[2] = data, ARGV[3] = now in ms,
-- ARGV[4] = most per key, ARGV[5] = KEEP in seconds
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  redis.call('ZREM', KEYS[2], unpack(old))
  redis.call('HDEL', KEYS[1], unpack(old))
end
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return redis.call('ZCARD', KEYS[2])

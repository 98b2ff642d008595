-- Notes in a challenger's own slot what became of its challenge, and tells its waits: a
-- challenge refused in the challenged key's slot is dropped, uncounted ('drop'), one made is announced
-- (''), one settled is no longer open ('s': forgotten `kept` after now).
-- KEYS[1..3] = as CHALLENGE_OUT's; ARGV[1..5] = id, what, now (ms), kept (ms), channel
local OUT, OPEN, K = KEYS[1], KEYS[2], KEYS[3]
if ARGV[2] == 'drop' then
  -- Refused there: not made, so not counted in the hour either.
  if redis.call('HDEL', OPEN, ARGV[1]) == 1 and tonumber(redis.call('HGET', K, 'hn') or '0') > 0 then
    redis.call('HINCRBY', K, 'hn', -1)
  end
  redis.call('ZREM', OUT, ARGV[1])
  return 0
end
if ARGV[2] == 's' and redis.call('HEXISTS', OPEN, ARGV[1]) == 1 then
  redis.call('HSET', OPEN, ARGV[1], 's')
  redis.call('ZADD', OUT, tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[1])
end
-- The version: one more, and at least now (ms): it never goes back, even past the hash's expiry.
local v = math.max(tonumber(redis.call('HGET', K, 'v') or '0') + 1, tonumber(ARGV[3]))
redis.call('HSET', K, 'v', string.format('%d', v))
if redis.call('PTTL', K) < 345600000 then redis.call('PEXPIRE', K, 345600000) end
redis.call('SPUBLISH', ARGV[5], string.format('%d', v))
return 1

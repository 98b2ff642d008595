-- Settles a match's pending rating in its own slot: its hash's 'rate' becomes 'done' (with each
-- seat's rating before and after) or 'no' (not rated), and it leaves its shard's torate set.
-- Idempotent; a match already forgotten stays forgotten.
-- KEYS[1..2] = the match's hash, its shard's torate set; ARGV[1] = the match id, ARGV[2] =
-- 'done' or 'no', ARGV[3] = the ratings ('before0 after0 before1 after1'; '' with 'no')
if redis.call('HGET', KEYS[1], 'rate') == 'pending' then
  if ARGV[2] == 'done' then
    redis.call('HSET', KEYS[1], 'rate', 'done', 'ratings', ARGV[3])
  else
    redis.call('HSET', KEYS[1], 'rate', 'no')
  end
end
redis.call('ZREM', KEYS[2], ARGV[1])
return 0

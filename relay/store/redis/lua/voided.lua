-- Marks a match whose rating a host voided, while the store still holds it: its summary
-- then reads rated 'voided', without ratings. KEYS[1] = the match's hash.
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'rate', 'void')
  redis.call('HDEL', KEYS[1], 'ratings')
end
return 1

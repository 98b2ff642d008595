-- Moves a match from one lobby list of a game to another, or drops it; once.
-- KEYS[1..4] = the list it is in, the list it moves to, the times hash, the version
-- ARGV[1..6] = match id, new since ('' to keep it), most entries, the lobby's channel, game,
--              '1' to drop the entry instead of moving it
if redis.call('LREM', KEYS[1], 0, ARGV[1]) == 0 then return 0 end
if ARGV[6] == '1' then
  redis.call('HDEL', KEYS[3], ARGV[1])
else
  redis.call('LREM', KEYS[2], 0, ARGV[1])
  redis.call('LPUSH', KEYS[2], ARGV[1])
  if ARGV[2] ~= '' then redis.call('HSET', KEYS[3], ARGV[1], ARGV[2]) end
  trim(KEYS[2], KEYS[3], tonumber(ARGV[3]))
end
local v = redis.call('INCR', KEYS[4])
redis.call('SPUBLISH', ARGV[4], 'x')
return v

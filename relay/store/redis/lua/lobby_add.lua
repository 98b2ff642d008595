-- Lists a match first in one of a game's lobby lists.
-- KEYS[1..3] = the list, the times hash, the version
-- ARGV[1..5] = match id, since, most entries, the lobby's channel, game
redis.call('LREM', KEYS[1], 0, ARGV[1])
redis.call('LPUSH', KEYS[1], ARGV[1])
trim(KEYS[1], KEYS[2], tonumber(ARGV[3]))
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local v = redis.call('INCR', KEYS[3])
redis.call('SPUBLISH', ARGV[4], 'x')
return v

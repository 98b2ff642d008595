-- Removes a match that no longer waits from its game's queue and waiting set.
-- KEYS[1..2] = the game's queue and waiting set; ARGV[1] = a match no longer waiting
redis.call('LREM', KEYS[1], 0, ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', string.match(KEYS[1], '^(.-{g:[^}]*})') .. 'ranges', ARGV[1])
return 0

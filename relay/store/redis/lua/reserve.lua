-- Counts a room match about to be opened toward the game's waiting limit, if it allows.
-- KEYS[1] = the game's waiting set; ARGV[1..3] = now, most waiting matches, the new match id
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return {'e', 'limit/waiting'} end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
return {'ok'}

-- Lists a credential among a player key's passkeys unless it has as many; answers 1, or 0.
-- KEYS[1] = the key's hash (credential id -> when added); ARGV[1] = credential id,
-- ARGV[2] = when, ARGV[3] = passkeys per player
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1

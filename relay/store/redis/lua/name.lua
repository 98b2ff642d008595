-- Binds a name's skeleton to a player key for a while, unless another key holds it; answers
-- 1, or 0 (nothing changed) when another key does.
-- KEYS[1] = the skeleton's key; ARGV[1] = the key's digest ('' only checks), ARGV[2] = ms
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1

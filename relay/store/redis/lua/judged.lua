-- Reads what a referee judges, at once: the match's game, its status and its whole log.
local f = redis.call('HMGET', KEYS[1], 'game', 'status')
if not f[1] then return {'e', 'match/unknown'} end
if f[2] == 'expired' then return {'e', 'match/expired'} end
return {'ok', f[1], f[2], redis.call('LRANGE', ekey(ID), 0, -1)}

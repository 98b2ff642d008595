-- Reads what a referee judges of a seat's write at event AFTER, at once: the match's game, its
-- status, the writing seat and its whole log. The token is checked before anything else is
-- read; the log is read only when there is something to judge ({'no'} otherwise: not one of
-- the refereed games, not at that event, or neither in play nor ending).
-- ARGV[6] = the token's digest, ARGV[7] = after, ARGV[8..] = the refereed games.
local m = KEYS[1]
local f = redis.call('HMGET', m, 'game', 'status', 'h0', 'h1', 'last')
if not f[1] then return {'e', 'match/unknown'} end
local seat = seat_of(m, ARGV[6], f[3], f[4])
if not seat then return {'e', 'auth/bad_token'} end
if f[5] ~= ARGV[7] or (f[2] ~= 'playing' and f[2] ~= 'ending') then return {'no'} end
for i = 8, #ARGV do
  if ARGV[i] == f[1] then return {'ok', f[1], f[2], seat, redis.call('LRANGE', ekey(ID), 0, -1)} end
end
return {'no'}

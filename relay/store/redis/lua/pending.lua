-- Reads what settling a match's rating needs, in its slot: its hash's rate, game, p0, p1, n0,
-- n1 and claim, then its last event ('' for none).
-- KEYS[1..2] = the match's hash and log
local found = redis.call('HMGET', KEYS[1], 'rate', 'game', 'p0', 'p1', 'n0', 'n1', 'claim')
for index = 1, 7 do
  if not found[index] then found[index] = '' end
end
found[8] = redis.call('LINDEX', KEYS[2], -1) or ''
return found

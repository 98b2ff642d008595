-- Picks the oldest match waiting in the game's queue for the seeker to join ('join'), or says
-- none is ('open'), or answers what the seeker's own token got before ('memo').
-- KEYS[3] = the seeker's memo key; ARGV[3..6] = most waiting matches of the game,
-- '1' when the token is the seeker's own, the id of a match that could not be joined (''),
-- the id of a match the seeker skipped as its own player key's (''); ARGV[7..10] = the
-- seeker's player key digest ('' for none) and rating range (kind, a, b: see pick)
local MEMO, MAX_WAITING, OWN, FAILED = KEYS[3], tonumber(ARGV[3]), ARGV[4] == '1', ARGV[5]
if OWN and ARGV[6] ~= '' and recall(MEMO) == ARGV[6] then redis.call('DEL', MEMO) end
if FAILED ~= '' then
  redis.call('ZREM', WAITING, FAILED)
  redis.call('HDEL', ranges_key(), FAILED)
  if OWN and recall(MEMO) == FAILED then redis.call('DEL', MEMO) end
elseif OWN then
  local id, seat = recall(MEMO)
  if id then return {'memo', id, seat} end
end
local id = pick(ARGV[7], ARGV[8], ARGV[9], ARGV[10])
if id then
  if OWN then remember(MEMO, id, 1) end
  return {'join', id}
end
if redis.call('ZCARD', WAITING) >= MAX_WAITING then return {'e', 'limit/waiting'} end
return {'open'}

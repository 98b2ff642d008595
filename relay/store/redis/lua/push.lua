-- Queues a match just opened, unless another seeker queued one meanwhile ('join' it instead) or
-- the seeker's own token already got a seat ('memo').
-- KEYS[3] = the seeker's memo key; ARGV[3..5] = the id of the match just opened,
-- '1' when the token is the seeker's own, the id of a match the seeker skipped as its own
-- player key's (''); ARGV[6..9] = the seeker's player key digest ('' for none) and rating
-- range (kind, a, b: see pick)
local MEMO, ID, OWN = KEYS[3], ARGV[3], ARGV[4] == '1'
if OWN and ARGV[5] ~= '' and recall(MEMO) == ARGV[5] then redis.call('DEL', MEMO) end
if OWN then
  local id, seat = recall(MEMO)
  if id and id ~= ID then return {'memo', id, seat} end
end
local other = pick(ARGV[6], ARGV[7], ARGV[8], ARGV[9])
if other then
  if OWN then remember(MEMO, other, 1) end
  return {'join', other}
end
redis.call('RPUSH', QUEUE, ID)
if ARGV[6] ~= '' then
  redis.call('HSET', ranges_key(), ID, ARGV[6] .. ' ' .. ARGV[7] .. ' ' .. ARGV[8] .. ' ' .. ARGV[9])
end
redis.call('ZADD', WAITING, NOW_TEXT, ID)
if OWN then remember(MEMO, ID, 0) end
return {'ok'}

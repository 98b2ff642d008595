-- Takes the second seat of a waiting match (or answers the seat this token already holds), then
-- the first mover's turn notice, if any (the match starts at once only with a per-move deadline:
-- see join); 'skip' when the match can no longer be joined, 'same'
-- when its seat was taken with the seeker's own player key, or by a key that blocked the
-- seeker's or that the seeker's blocks.
-- ARGV[6..11] = token digest, first seat, player key digest, contact, display name and the
--               digests the key blocks, comma-joined ('' for none)
local PLAYER = ARGV[8]
local f = redis.call('HMGET', KEYS[1], 'status', 'h0', 'h1', 'seen0', 'tc', 'p0', 'bk')
if not f[1] then return {'skip'} end
if f[2] == ARGV[6] then return {'ok', 0} end
if f[3] == ARGV[6] then return {'ok', 1} end
if f[1] ~= 'waiting' or f[3] then return {'skip'} end  -- seat 1 taken: paired already
if seek_stale(KEYS[1], f[4], f[5]) then
  expire(ID)
  return {'skip'}
end
if PLAYER ~= '' and f[6] == PLAYER then return {'same'} end
if refuses(f[6], f[7], PLAYER, ARGV[11] or '') then return {'same'} end
local answer = {'ok', 1}
for _, value in ipairs(join(ID, ARGV[6], ARGV[7], PLAYER, ARGV[9], ARGV[10])) do
  table.insert(answer, value)
end
return answer

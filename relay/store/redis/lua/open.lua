-- Opens a waiting match with one seat taken (a retry of the same opening is answered ok).
-- ARGV[6..15] = token digest, game, version, room ('' for none), time control key and JSON
--               ('' for none), player key digest and contact, display name, the digests
--               the key blocks, comma-joined ('' for none)
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'h0') == ARGV[6] then return {'ok'} end
  return {'e', 'collision'}
end
open(ID, ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13], ARGV[14],
  ARGV[15])
return {'ok'}

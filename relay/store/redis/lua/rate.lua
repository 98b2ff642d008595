-- Writes both players' new ratings of one match, in the game's slot, once (docs/ratings.md).
-- KEYS[1..2] = each seat's rating hash, KEYS[3..4] = each seat's history, KEYS[5] = the game's
-- leaderboard, KEYS[6] = the match's rated marker.
-- ARGV[1..2] = the versions of the ratings the new ones were computed from ('0': none);
-- ARGV[3..11] seat 0's and ARGV[12..20] seat 1's: rating, deviation, volatility, games, at,
-- name ('' for none), history entry (JSON), '1' to list it on the leaderboard (else '0'),
-- its key digest; ARGV[21] = the marker's value (the match's ratings), ARGV[22] = its time to
-- live (seconds). Answers {'done', marker} when the match was rated before, {'stale'} when
-- either rating changed since it was read (read again and recompute), else {'rated', marker}.
local marked = redis.call('GET', KEYS[6])
if marked then return {'done', marked} end
local versions = {}
for seat = 0, 1 do
  local version = redis.call('HGET', KEYS[1 + seat], 'ver') or '0'
  if version ~= ARGV[1 + seat] then return {'stale'} end
  versions[seat] = tonumber(version)
end
for seat = 0, 1 do
  local b = 3 + seat * 9
  local key = KEYS[1 + seat]
  redis.call('HSET', key, 'rating', ARGV[b], 'deviation', ARGV[b + 1], 'volatility',
    ARGV[b + 2], 'games', ARGV[b + 3], 'at', ARGV[b + 4], 'ver', versions[seat] + 1)
  if ARGV[b + 5] ~= '' then
    redis.call('HSET', key, 'name', ARGV[b + 5])
  else
    redis.call('HDEL', key, 'name')
  end
  redis.call('LPUSH', KEYS[3 + seat], ARGV[b + 6])
  redis.call('LTRIM', KEYS[3 + seat], 0, 99)
  if ARGV[b + 7] == '1' then
    redis.call('ZADD', KEYS[5], ARGV[b], ARGV[b + 8])
  else
    redis.call('ZREM', KEYS[5], ARGV[b + 8])
  end
end
redis.call('SET', KEYS[6], ARGV[21], 'EX', ARGV[22])
return {'rated', ARGV[21]}

-- Writes both players' new ratings of one match, in the game's slot, once (docs/ratings.md),
-- unless the pair of keys had CAP rated results in the game in the last DAY seconds.
-- KEYS[1..2] = each seat's rating hash, KEYS[3..4] = each seat's history, KEYS[5] = the game's
-- leaderboard, KEYS[6] = the match's rated marker, KEYS[7] = the pair's recent rated results
-- (sorted set: match id -> when), KEYS[8] = the match's void record (relay.store.redis
-- .moderation: what the match changed, kept so that a host may void it).
-- ARGV[1..2] = the versions of the ratings the new ones were computed from ('0': none);
-- ARGV[3..13] seat 0's and ARGV[14..24] seat 1's: rating, deviation, volatility, games, at,
-- name ('' for none), history entry (JSON), '1' to list it on the leaderboard (else '0'),
-- its key digest, when its first rated game ended, its distinct opponents (comma-joined);
-- ARGV[25] = the marker's value (the match's ratings), ARGV[26] = its time to live (seconds);
-- ARGV[27..30] = now, CAP, DAY, KEEP (seconds each rating and history lasts after this
-- write), ARGV[31] = the void record's JSON, ARGV[32] = its time to live. Answers {'done', marker} when the match was rated before,
-- {'capped'} when the pair had its CAP (nothing written), {'stale'} when either rating
-- changed since it was read (read again and recompute), else {'rated', marker}.
local marked = redis.call('GET', KEYS[6])
if marked then return {'done', marked} end
local versions = {}
for seat = 0, 1 do
  local version = redis.call('HGET', KEYS[1 + seat], 'ver') or '0'
  if version ~= ARGV[1 + seat] then return {'stale'} end
  versions[seat] = tonumber(version)
end
local now, cap, day = tonumber(ARGV[27]), tonumber(ARGV[28]), tonumber(ARGV[29])
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', '(' .. string.format('%.17g', now - day))
if redis.call('ZCARD', KEYS[7]) >= cap then return {'capped'} end
redis.call('ZADD', KEYS[7], ARGV[27], ARGV[25])
redis.call('EXPIRE', KEYS[7], math.ceil(day))
for seat = 0, 1 do
  local b = 3 + seat * 11
  local key = KEYS[1 + seat]
  redis.call('HSET', key, 'rating', ARGV[b], 'deviation', ARGV[b + 1], 'volatility',
    ARGV[b + 2], 'games', ARGV[b + 3], 'at', ARGV[b + 4], 'ver', versions[seat] + 1,
    'first', ARGV[b + 9], 'opp', ARGV[b + 10])
  if ARGV[b + 5] ~= '' then
    redis.call('HSET', key, 'name', ARGV[b + 5])
  else
    redis.call('HDEL', key, 'name')
  end
  redis.call('LPUSH', KEYS[3 + seat], ARGV[b + 6])
  redis.call('LTRIM', KEYS[3 + seat], 0, 99)
  redis.call('EXPIRE', key, ARGV[30])
  redis.call('EXPIRE', KEYS[3 + seat], ARGV[30])
  if ARGV[b + 7] == '1' then
    redis.call('ZADD', KEYS[5], ARGV[b], ARGV[b + 8])
  else
    redis.call('ZREM', KEYS[5], ARGV[b + 8])
  end
end
redis.call('SET', KEYS[6], ARGV[25], 'EX', ARGV[26])
redis.call('SET', KEYS[8], ARGV[31], 'EX', ARGV[32])
return {'rated', ARGV[25]}

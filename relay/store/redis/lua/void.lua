-- Takes a rated match's rating back from both seats, once (docs/fair-play.md#moderation): a
-- seat whose rating is still what the match made it gets its whole rating before the match
-- back (a first rated game leaves none); one rated again since gets the match's points back.
-- KEYS[1] = the match's void record (JSON: game, d = both key digests, before and after =
-- each seat's rating, deviation, volatility, games and at, as the rating hashes hold them,
-- state), KEYS[2..3] = each seat's rating hash, KEYS[4..5] = each seat's history, KEYS[6] =
-- the game's leaderboard; ARGV[1] = the match id.
-- Answers {'not_rated'}, {'already', seats} or {'voided', seats}: seats as JSON, per seat
-- {seat, 1 when exact, its rating now}.
local raw = redis.call('GET', KEYS[1])
if not raw then return {'not_rated'} end
local record = cjson.decode(raw)
if record.state == 'voided' then return {'already', cjson.encode(record.seats)} end
local seats = {}
for seat = 0, 1 do
  local key, history = KEYS[2 + seat], KEYS[4 + seat]
  local before, after = record.before[seat + 1], record.after[seat + 1]
  local digest = record.d[seat + 1]
  local f = redis.call('HMGET', key, 'rating', 'deviation', 'volatility', 'games', 'at')
  if f[1] then
    local exact = true
    for index = 1, 5 do
      if (f[index] or '') ~= after[index] then exact = false end
    end
    for _, item in ipairs(redis.call('LRANGE', history, 0, -1)) do
      if cjson.decode(item).match == ARGV[1] then redis.call('LREM', history, 1, item) end
    end
    local now = before[1]
    if exact and before[4] == '0' then
      redis.call('DEL', key, history)
      redis.call('ZREM', KEYS[6], digest)
    elseif exact then
      redis.call('HSET', key, 'rating', before[1], 'deviation', before[2], 'volatility',
        before[3], 'games', before[4], 'at', before[5])
      redis.call('HINCRBY', key, 'ver', 1)
    else
      now = string.format('%.17g', tonumber(f[1]) - (tonumber(after[1]) - tonumber(before[1])))
      redis.call('HSET', key, 'rating', now, 'games', math.max(0, tonumber(f[4]) - 1))
      redis.call('HINCRBY', key, 'ver', 1)
    end
    if redis.call('EXISTS', key) == 1 and redis.call('ZSCORE', KEYS[6], digest) then
      redis.call('ZADD', KEYS[6], now, digest)
    end
    local flag = 0
    if exact then flag = 1 end
    table.insert(seats, {seat, flag, now})
  end
end
record.state = 'voided'
record.seats = seats
redis.call('SET', KEYS[1], cjson.encode(record), 'KEEPTTL')
return {'voided', cjson.encode(seats)}

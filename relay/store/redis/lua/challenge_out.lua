-- Counts a new challenge in its challenger's own slot: its pace and its open challenges.
-- Answers {'ok'}, {'fast', ms to wait} or a refusal (challenge/too_many).
-- KEYS[1..3] = the challenger's outgoing set (id -> when it is forgotten, ms), its hash of
--              them (id -> when it lapses, ms, or 's' once settled), its hash (v: version;
--              hw, hn: the hour counted and the challenges made in it)
-- ARGV[1..7] = id, now (ms), until (ms), open most, per hour, an hour (ms), kept (ms)
local OUT, OPEN, K = KEYS[1], KEYS[2], KEYS[3]
local NOW = tonumber(ARGV[2])
local gone = redis.call('ZRANGEBYSCORE', OUT, '-inf', NOW)
if #gone > 0 then
  redis.call('ZREMRANGEBYSCORE', OUT, '-inf', NOW)
  redis.call('HDEL', OPEN, unpack(gone))
end
local hw = tonumber(redis.call('HGET', K, 'hw') or '0')
local hn = tonumber(redis.call('HGET', K, 'hn') or '0')
local HOUR = tonumber(ARGV[6])
if NOW - hw >= HOUR then hw, hn = NOW, 0 end
if hn >= tonumber(ARGV[5]) then return {'fast', tostring(hw + HOUR - NOW)} end
local count = 0
local held = redis.call('HGETALL', OPEN)
for i = 2, #held, 2 do
  if held[i] ~= 's' and tonumber(held[i]) > NOW then count = count + 1 end
end
if count >= tonumber(ARGV[4]) then return {'e', 'challenge/too_many'} end
redis.call('ZADD', OUT, tonumber(ARGV[3]) + tonumber(ARGV[7]), ARGV[1])
redis.call('HSET', OPEN, ARGV[1], ARGV[3])
redis.call('HSET', K, 'hw', string.format('%d', hw), 'hn', hn + 1)
local last = redis.call('ZRANGE', OUT, -1, -1, 'WITHSCORES')
local ttl = math.max(HOUR, tonumber(last[2]) - NOW)
for _, key in ipairs({OUT, OPEN}) do redis.call('PEXPIRE', key, ttl) end
-- The key's hash outlives any challenge of its lists (4 days).
if redis.call('PTTL', K) < 345600000 then redis.call('PEXPIRE', K, 345600000) end
return {'ok'}

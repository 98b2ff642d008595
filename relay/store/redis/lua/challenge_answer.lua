-- Answers a challenge once, in the challenged key's own slot (relay.core.challenges.settle,
-- by the same rules): the challenged key accepts or declines, the challenger withdraws.
-- Answers {'ok', state} when it settled it now, {'same', state} when the same answer had, or
-- a refusal: challenge/unknown (no such challenge, or not this key's to give this answer),
-- challenge/settled (another answer or its lapse settled it; the detail says which).
-- KEYS[1..4] = the key's incoming set, the terms, the states, its hash (as CHALLENGE_IN's)
-- ARGV[1..9] = id, the answering key's digest, action, now (ms), the new match's id, a coin
--              (0 or 1), the accepting key's name, kept (ms), channel
local IN, R, S, K = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local ID, NOW, ACTION = ARGV[1], tonumber(ARGV[4]), ARGV[3]
local forget = redis.call('ZSCORE', IN, ID)
local st = redis.call('HGET', S, ID)
local raw = redis.call('HGET', R, ID)
if not forget or tonumber(forget) <= NOW or not st or not raw then
  return {'e', 'challenge/unknown'}
end
local terms = cjson.decode(raw)
local allowed = terms['receiver_key']
if ACTION == 'withdraw' then allowed = terms['sender_key'] end
if ARGV[2] ~= allowed then return {'e', 'challenge/unknown'} end
local state, untl, sender = string.match(st, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t')
if state == 'open' and tonumber(untl) <= NOW then state = 'lapsed' end
local done = ({accept = 'accepted', decline = 'declined', withdraw = 'withdrawn'})[ACTION]
if state == done then return {'same', st} end
if state ~= 'open' then return {'e', 'challenge/settled', state} end
local match, first, name = '', '', ''
if ACTION == 'accept' then
  match, name = ARGV[5], ARGV[7]
  first = ({first = '0', second = '1'})[terms['colour']] or ARGV[6]
end
local now = string.format('%d', NOW)
local new = done .. '\t' .. untl .. '\t' .. sender .. '\t' .. match .. '\t' .. first .. '\t'
  .. now .. '\t' .. name
redis.call('HSET', S, ID, new)
redis.call('ZADD', IN, NOW + tonumber(ARGV[8]), ID)
-- The version: one more, and at least now (ms): it never goes back, even past the hash's expiry.
local v = math.max(tonumber(redis.call('HGET', K, 'v') or '0') + 1, NOW)
redis.call('HSET', K, 'v', string.format('%d', v))
if redis.call('PTTL', K) < 345600000 then redis.call('PEXPIRE', K, 345600000) end
redis.call('SPUBLISH', ARGV[9], string.format('%d', v))
return {'ok', new}

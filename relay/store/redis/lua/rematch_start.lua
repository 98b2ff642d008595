-- Opens the new match of an accepted rematch, once: same game, version, seat tokens, player
-- keys and contacts; answers 1 and the first mover's turn notice (relay.store.redis.scripts'
-- JOIN) when it opened it, 0 when it was open already.
-- KEYS[1..4] = the new match's hash, log; the counts hash; the deadlines set
-- ARGV[1..18] = now, grace, game, version, digest of seat 0, of seat 1, first, the new
--               match's channel, the new match's id, the time control's key and JSON (''),
--               each seat's player key digest and contact, and display name ('' for none),
--               '1' for a match never rated (a challenge's with rated: false), else ''
local M, E = KEYS[1], KEYS[2]
if redis.call('EXISTS', M) == 1 then return {'ok', 0} end
local NOW_TEXT, FIRST = ARGV[1], ARGV[7]
local due = tonumber(NOW_TEXT) + tonumber(ARGV[2])
local fields, tail = {'tat', string.format('%d', math.floor(tonumber(NOW_TEXT) * 1000 + 0.5))}, ''
if ARGV[10] ~= '' then
  local at
  fields, tail, at = clock_start(ARGV[10], ARGV[11], math.floor(tonumber(NOW_TEXT) * 1000 + 0.5))
  table.insert(fields, 'tc')
  table.insert(fields, ARGV[10])
  table.insert(fields, 'tcj')
  table.insert(fields, ARGV[11])
  due = math.min(due, at)
end
redis.call('HSET', M, 'game', ARGV[3], 'version', ARGV[4], 'status', 'playing',
  'h0', ARGV[5], 'h1', ARGV[6], 'seen0', NOW_TEXT, 'seen1', NOW_TEXT, 'since', NOW_TEXT,
  'last', 1, 'd1', '', 'turn', FIRST, 'first', FIRST, unpack(fields))
if ARGV[18] == '1' then redis.call('HSET', M, 'cas', '1') end
for seat = 0, 1 do
  if ARGV[12 + seat] ~= '' then redis.call('HSET', M, 'p' .. seat, ARGV[12 + seat]) end
  if ARGV[14 + seat] ~= '' then redis.call('HSET', M, 'c' .. seat, ARGV[14 + seat]) end
  if ARGV[16 + seat] ~= '' then redis.call('HSET', M, 'n' .. seat, ARGV[16 + seat]) end
end
local event = '{"seq":1,"type":"started","first":' .. FIRST .. tail .. '}'
redis.call('RPUSH', E, event)
redis.call('HINCRBY', KEYS[3], 'playing', 1)
redis.call('ZADD', KEYS[4], string.format('%.17g', due), ARGV[9])
redis.call('SPUBLISH', ARGV[8], '1 ' .. event)
local answer = {'ok', 1}
if ARGV[10] ~= '' then
  local _, base = control_of(ARGV[10])
  local start = math.floor(tonumber(NOW_TEXT) * 1000 + 0.5)
  for _, value in ipairs(notice(M, ARGV[10], FIRST, start + base)) do
    table.insert(answer, value)
  end
end
return answer

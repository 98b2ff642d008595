-- Reads the log above `after`; a seat's read also marks it present, and seat 0's starts a
-- paired match (see join). Answers the reader's seat
-- (-1 for a spectator), the events, the match's status, its table's changes so far ('tv') and
-- when seat 1 of a waiting match was taken ('pj', '' for none).
-- ARGV[6..7] = token digest ('' for a spectator), after
local DIGEST = ARGV[6]
local m = KEYS[1]
local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'last', 'a0', 'a1', 'tv')
local status = f[1]
if not status then return {'e', 'match/unknown'} end
if status == 'expired' then return {'e', 'match/expired'} end
local seat = -1
if DIGEST ~= '' then
  seat = seat_of(m, DIGEST, f[2], f[3])
  if not seat then return {'e', 'auth/bad_token'} end
  redis.call('HSET', m, SEEN[seat], NOW_TEXT)
  if f[5 + seat] then back(m, ID, seat) end
  local was = status
  status = started_by_poll(m, ID, seat, status)
  if status ~= was then f[4] = redis.call('HGET', m, 'last') end
end
-- A reader past the log's end saw events the store has lost since (a failover).
if tonumber(ARGV[7]) > tonumber(f[4]) then return {'e', 'match/behind', f[4]} end
if status == 'finished' then mark_unrated(ID) end
local paired = ''
if status == 'waiting' then paired = redis.call('HGET', m, 'pj') or '' end
return {'ok', seat, redis.call('LRANGE', ekey(ID), ARGV[7], -1), status, f[7] or '0', paired}

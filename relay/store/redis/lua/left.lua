-- Notes that a held request of a seat, begun (and marked present) at `started`, ended with its
-- client gone: unless the seat polled or wrote since, its 'g' field says when, and the reaper
-- looks at the match once the seat may be away (a waiting seeker, once its seek may lapse).
-- ARGV[6..7] = token digest, started
local m = KEYS[1]
local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'seen0', 'seen1')
local status = f[1]
if not status or status == 'finished' or status == 'expired' then return {'ok'} end
local seat = seat_of(m, ARGV[6], f[2], f[3])
if not seat then return {'ok'} end
if tonumber(f[4 + seat]) <= tonumber(ARGV[7]) then
  redis.call('HSET', m, 'g' .. DIGITS[seat], NOW_TEXT)
  if status == 'waiting' then schedule_lt(ID, NOW + SEEK_GRACE) else schedule_lt(ID, NOW + AWAY) end
end
return {'ok'}

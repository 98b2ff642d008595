-- Ends a match in play whose log still ends at event ARGV[6] with a referee's verdict, once:
-- two relay processes judging the same game-ending move (or a retry) write one ended event.
-- Answers the ended event's number, or 0 when the log has moved on (or the match is over).
-- ARGV[6..9] = the last event the verdict was judged on, the verdict's reason, its seat, the
--              fields its ended event has after the seat (JSON text, relay.core.verdicts)
local f = redis.call('HMGET', KEYS[1], 'status', 'last')
if (f[1] ~= 'playing' and f[1] ~= 'ending') or tonumber(f[2]) ~= tonumber(ARGV[6]) then
  return 0
end
return finish(ID, ARGV[7], tonumber(ARGV[8]), '', ARGV[9])

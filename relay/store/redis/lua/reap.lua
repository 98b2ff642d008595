-- Ends abandoned, timed-out and unconfirmed matches, drops silent seekers and pairings whose
-- seat 0 did not poll again, forgets old matches,
-- in one shard; answers what it changed, how many it looked at, the dropped seeks (id, game,
-- version), which the caller unlists, and the forgotten matches seated with player keys (id,
-- digest of seat 0's key, of seat 1's, '' for none), which the caller unlists from their
-- players' lists.
-- KEYS[1] = the shard's deadlines; ARGV[2] = '' (no one match); ARGV[6] = most to look at
local due = redis.call('ZRANGEBYSCORE', DEADLINES, '-inf', '(' .. NOW_TEXT,
  'LIMIT', 0, tonumber(ARGV[6]))
local changed, expired, gone = 0, {}, {}
for _, id in ipairs(due) do
  local f = redis.call('HMGET', mkey(id), 'status', 'seen0', 'seen1', 'since', 'ender',
    'tc', 'turn', 'l0', 'l1', 'tat', 'g0', 'g1', 'a0', 'a1')
  local status = f[1]
  local seen0, seen1, since = tonumber(f[2]), tonumber(f[3]), tonumber(f[4])
  local late = nil
  if status == 'playing' then late = out_of_time(f[6], f[7], f[8], f[9], f[10]) end
  if status == 'playing' or status == 'ending' then
    -- A seat that holds no poll is shown away (relay.core.table).
    local shown = false
    for seat = 0, 1 do
      if not f[13 + seat] then
        local since = absent(f[2 + seat], f[11 + seat])
        if since then
          redis.call('HSET', mkey(id), 'a' .. seat, string.format('%.17g', since))
          shown = true
        end
      end
    end
    if shown then table_changed(id) end
  end
  if not status then
    redis.call('ZREM', DEADLINES, id)
  elseif status == 'waiting' and seek_stale(mkey(id), f[2], f[6]) then
    local game, version = expire(id)
    table.insert(expired, id)
    table.insert(expired, game)
    table.insert(expired, version)
    schedule(id, NOW + KEEP)
    changed = changed + 1
  elseif late then
    finish(id, 'timeout', late, '')
    schedule(id, NOW + KEEP)
    changed = changed + 1
  elseif status == 'playing' and not is_deadline(f[6])
      and math.min(seen0, seen1) + GRACE < NOW then
    local absent = 0
    if seen1 < seen0 then absent = 1 end
    finish(id, 'abandoned', absent, '')
    schedule(id, NOW + KEEP)
    changed = changed + 1
  elseif status == 'ending'
      and math.min(since, tonumber(f[3 - tonumber(f[5])])) + patience(f[6]) < NOW then
    finish(id, 'unconfirmed', 1 - tonumber(f[5]), '', redis.call('HGET', mkey(id), 'said'))
    schedule(id, NOW + KEEP)
    changed = changed + 1
  elseif status == 'finished' and since + KEEP < NOW and mark_unrated(id) then
    -- Ended by an earlier release and never read since: rated before it is forgotten.
    schedule(id, NOW + 60)
    changed = changed + 1
  elseif (status == 'finished' or status == 'expired') and since + KEEP < NOW then
    local p = redis.call('HMGET', mkey(id), 'p0', 'p1')
    if p[1] or p[2] then
      table.insert(gone, id)
      table.insert(gone, p[1] or '')
      table.insert(gone, p[2] or '')
    end
    redis.call('DEL', mkey(id), ekey(id), ckey(id))
    redis.call('ZREM', DEADLINES, id)
    recount(status, false)
    changed = changed + 1
  else
    schedule(id, deadline(id))
  end
end
return {changed, #due, expired, gone}

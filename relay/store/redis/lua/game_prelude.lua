-- GRACE is how long a seeker's memo lasts: the grace period, or a correspondence seek's
-- patience (relay.players.patience).
local QUEUE, WAITING, GAME_TAGGED
local function begin_game(KEYS, ARGV)
  QUEUE, WAITING = KEYS[1], KEYS[2]
  GAME_TAGGED = string.match(QUEUE, '^(.-{g:[^}]*})')
  NOW_TEXT = ARGV[1]
  NOW, GRACE = tonumber(NOW_TEXT), tonumber(ARGV[2])
end

-- Rating ranges (docs/ratings.md): each queued seek of a player key has an entry in the
-- game's 'ranges' hash, id -> 'digest kind a b': kind '' (no range), 'w' (within a of its own
-- rating) or 'm' (from a to b, '' for an open end). Ratings are read in the game's slot.
local function ranges_key() return GAME_TAGGED .. 'ranges' end

local function rating_of(digest)
  local rating = redis.call('HGET', GAME_TAGGED .. 'r:' .. digest, 'rating')
  return math.floor(tonumber(rating or '1500'))
end

-- Whether a seek (its own rating `own`, its range kind, a, b) admits a partner rated `other`
-- (nil: no player key).
local function admits(own, kind, a, b, other)
  if kind == '' then return true end
  if other == nil then return false end
  if kind == 'w' then return math.abs(other - own) <= tonumber(a) end
  return (a == '' or other >= tonumber(a)) and (b == '' or other <= tonumber(b))
end

-- Takes off the queue the oldest of its first 50 seeks that the seeker (its digest, '' for
-- none, and range) may be paired with, each within the other's range; nil for none. With no
-- range anywhere, the queue's head, as before ranges.
local function pick(digest, kind, a, b)
  local ranges = ranges_key()
  if kind == '' and redis.call('HLEN', ranges) == 0 then return redis.call('LPOP', QUEUE) end
  local own = nil
  if digest ~= '' then own = rating_of(digest) end
  for _, id in ipairs(redis.call('LRANGE', QUEUE, 0, 49)) do
    local entry = redis.call('HGET', ranges, id)
    local other, okind, oa, ob = nil, '', '', ''
    if entry then
      local odigest
      odigest, okind, oa, ob = string.match(entry, '^(%S+) (%S*) (%S*) (%S*)$')
      other = rating_of(odigest)
    end
    if admits(own, kind, a, b, other) and admits(other, okind, oa, ob, own) then
      redis.call('LREM', QUEUE, 1, id)
      return id  -- its entry stays until it leaves the waiting set (it may be put back)
    end
  end
  return nil
end

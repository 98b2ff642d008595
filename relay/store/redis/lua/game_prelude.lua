-- GRACE is how long a seeker's memo lasts: the grace period, or a correspondence seek's
-- patience (relay.players.patience).
local QUEUE, WAITING
local function begin_game(KEYS, ARGV)
  QUEUE, WAITING = KEYS[1], KEYS[2]
  NOW_TEXT = ARGV[1]
  NOW, GRACE = tonumber(NOW_TEXT), tonumber(ARGV[2])
end

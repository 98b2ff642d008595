-- Seeks in a private room: joins the match waiting in it, or opens one when allowed ('open'
-- asks the caller to check the waiting limit first). Answers the match, the seat, the first
-- mover's turn notice when it joined (see JOIN), and last the id of a stale match it dropped
-- from the room ('' for none), which the caller unlists.
-- KEYS[1] = the room's key, KEYS[2] = the seeker's memo key (both in ID's shard)
-- ARGV[6..18] = game, version, room, token digest, first, '1' when the token is the seeker's
--               own, '1' when a new match may be opened (the waiting limit was checked),
--               the time control's key and JSON, the player key digest, contact, display
--               name and the digests the key blocks, comma-joined ('' for none)
local ROOM_KEY, MEMO = KEYS[1], KEYS[2]
local GAME, VERSION, ROOM_NAME, DIGEST, FIRST = ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10]
local OWN, MAY_OPEN = ARGV[11] == '1', ARGV[12] == '1'
local CONTROL, CONTROL_JSON, PLAYER, CONTACT = ARGV[13], ARGV[14], ARGV[15], ARGV[16]
local NAME, BLOCKS = ARGV[17], ARGV[18] or ''

if OWN then
  local id, seat = recall(MEMO)
  if id and redis.call('EXISTS', mkey(id)) == 1 then return {'ok', id, seat, ''} end
end
local dropped = ''
local held = redis.call('GET', ROOM_KEY)
if held then
  local f = redis.call('HMGET', mkey(held), 'status', 'seen0', 'version', 'tc', 'p0', 'bk',
    'pj')
  local status = f[1]
  if status == 'waiting' and seek_stale(mkey(held), f[2], f[4]) then
    expire(held)
    dropped, status = held, 'expired'
  end
  if status == 'waiting' and f[7] then return {'e', 'room/full'} end  -- paired already
  if status == 'waiting' then
    if PLAYER ~= '' and f[5] == PLAYER then return {'e', 'room/same_player'} end
    if refuses(f[5], f[6], PLAYER, BLOCKS) then return {'e', 'room/blocked'} end
    if f[3] ~= VERSION then return {'e', 'room/version_mismatch', f[3]} end
    if (f[4] or '') ~= CONTROL then return {'e', 'room/control_mismatch', f[4] or ''} end
    local answer = {'ok', held, 1}
    for _, value in ipairs(join(held, DIGEST, FIRST, PLAYER, CONTACT, NAME)) do
      table.insert(answer, value)
    end
    table.insert(answer, dropped)
    if OWN then remember(MEMO, held, 1, patience(CONTROL)) end
    return answer
  end
  if status == 'playing' or status == 'ending' then return {'e', 'room/full'} end
end
if not MAY_OPEN then return {'open', dropped} end
if redis.call('EXISTS', mkey(ID)) == 1 then return {'e', 'collision'} end
open(ID, DIGEST, GAME, VERSION, ROOM_NAME, CONTROL, CONTROL_JSON, PLAYER, CONTACT, NAME,
  BLOCKS)
redis.call('SET', ROOM_KEY, ID)
if OWN then remember(MEMO, ID, 0, patience(CONTROL)) end
return {'ok', ID, 0, dropped}

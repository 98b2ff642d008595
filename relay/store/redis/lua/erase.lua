-- Erases a player key's name and chat lines in one match: its seat's name goes, and each of
-- its chat lines keeps its number, seat and time with the text '' (docs/fair-play.md).
-- ARGV[6] = the key's digest. Answers {1 when it had a name (else 0), lines erased, name}.
local m = KEYS[1]
local f = redis.call('HMGET', m, 'p0', 'p1', 'n0', 'n1')
local seat
if f[1] == ARGV[6] then seat = 0 elseif f[2] == ARGV[6] then seat = 1 else return {0, 0, ''} end
local name = f[3 + seat] or ''
if name ~= '' then redis.call('HDEL', m, 'n' .. seat) end
local c = ckey(ID)
local head = '^{"n":(%d+),"seat":' .. seat .. ',"text":'
local lines = 0
for index, line in ipairs(redis.call('LRANGE', c, 0, -1)) do
  local n = string.match(line, head)
  if n and not string.find(line, '"text":"",', 1, true) then
    local at, said = string.match(line, ',"at":(%-?%d+),"time":([^}]+)}$')
    redis.call('LSET', c, index - 1, '{"n":' .. n .. ',"seat":' .. seat .. ',"text":"","at":'
      .. at .. ',"time":' .. said .. '}')
    lines = lines + 1
  end
end
if name ~= '' or lines > 0 then table_changed(ID) end
local had = 0
if name ~= '' then had = 1 end
return {had, lines, name}

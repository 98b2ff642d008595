-- Applies a seat's move, pass, confirm, resign or cancel, an acceptance of the partner's
-- standing offer (a draw ends the match 'drawn', a takeback appends its undo event) or a claim
-- against a staller ('stalled'), once. A cancel that expires the match
-- answers its game and version, whose waiting list the store then updates; a move, pass or
-- takeback of a match with a time control answers the partner's turn notice after its number
-- (see notice in match_prelude.lua; a retry answered from its write digest answers none).
-- ARGV[6..18] = token digest, kind, after (-1 for none), write digest, agree (1/0),
--               end (1/0), the move as a JSON string, most events a log may hold,
--               after + 1 as text (the number of the event a move or pass makes), '1' to have
--               an 'ok' answer end with the match's table changes so far ('tv'); for a
--               confirm or a game-ending move, a referee's verdict ('' for none: its reason,
--               its seat) and the fields its ended event has after the seat (a verdict's,
--               or a dispute's); ARGV[19] = a game-ending move's claim ('' for none);
--               ARGV[20] = the most bytes of move text a log may hold; ARGV[21] = a
--               game-ending move's words as its agreed or unconfirmed end's fields after the
--               seat (',"detail":...', '' for none), kept as 'said' until then; ARGV[22] =
--               '1' to answer turn notices in matches with a clock too (Web Push is on), else
--               only with a per-move deadline
local function act()
  local DIGEST, KIND = ARGV[6], ARGV[7]
  local AFTER = tonumber(ARGV[8])
  local WRITE, AGREE, END = ARGV[9], ARGV[10] == '1', ARGV[11] == '1'
  local TIMED = ARGV[22] == '1'
  local m = KEYS[1]
  local f = redis.call('HMGET', m, 'status', 'h0', 'h1', 'turn', 'ender', 'last', 'tc', 'l0',
    'l1', 'tat', 'a0', 'a1', 'mb')
  local status = f[1]
  if not status then return {'e', 'match/unknown'} end
  local seat = seat_of(m, DIGEST, f[2], f[3])
  if not seat then return {'e', 'auth/bad_token'} end
  local SEEN_SEAT = SEEN[seat]
  if f[11 + seat] then back(m, ID, seat) end
  -- Every write marks its seat present: a move or pass with the fields it sets anyway.
  if KIND ~= 'move' and KIND ~= 'pass' then redis.call('HSET', m, SEEN_SEAT, NOW_TEXT) end
  local function refuse(...)
    if KIND == 'move' or KIND == 'pass' then redis.call('HSET', m, SEEN_SEAT, NOW_TEXT) end
    return {'e', ...}
  end

  if KIND == 'cancel' then
    if status == 'expired' then return {'ok', 0} end
    if status ~= 'waiting' then return {'e', 'match/started'} end
    local game, version = expire(ID)
    return {'ok', 0, game, version}
  end
  if status == 'expired' then return refuse('match/expired') end
  if status == 'waiting' then return refuse('match/not_started') end
  -- 'timeout' once the seat to move is found out of time by this write (the match ends then).
  local LATE = nil
  if status == 'playing' then
    local late = out_of_time(f[7], f[4], f[8], f[9], f[10])
    if late then
      finish(ID, 'timeout', late, '')
      status, f[6], LATE = 'finished', int(tonumber(f[6]) + 1), 'timeout'
    end
  end

  local done = DIGITS[seat] .. ':' .. KIND .. ':' .. WRITE
  local last = tonumber(f[6])
  if KIND == 'resign' then
    if status == 'finished' then
      if wrote(m, seat, f[6], DIGITS[seat] .. ':resign:') then return {'ok', last} end
      return {'e', 'match/finished', LATE}
    end
    return {'ok', finish(ID, 'resigned', seat, done)}
  end
  if AFTER >= 0 and AFTER < last then
    if redis.call('HGET', m, 'w' .. DIGITS[seat]) == int(AFTER + 1) .. '|' .. done then
      if KIND == 'move' or KIND == 'pass' then redis.call('HSET', m, SEEN_SEAT, NOW_TEXT) end
      return {'ok', AFTER + 1}
    end
    if status == 'finished' then return refuse('match/finished', LATE) end
    return refuse('turn/stale', last)
  end
  if AFTER ~= last then return refuse('turn/stale', last) end
  if status == 'finished' then return refuse('match/finished', LATE) end
  if KIND == 'confirm' then
    -- A dispute, or a confirm carrying a referee's verdict, ends with the verdict's ended
    -- event, else 'disputed' with the play's number and the disputer's reason.
    local VERDICT, TAIL = ARGV[16], ARGV[18]
    local function judged()
      if VERDICT ~= '' then return {'ok', finish(ID, VERDICT, tonumber(ARGV[17]), done, TAIL)} end
      return {'ok', finish(ID, 'disputed', seat, done, TAIL)}
    end
    if status == 'playing' and not AGREE then
      -- The seat to move disputes the partner's last move or pass.
      local other = 1 - seat
      if wrote(m, other, f[6], DIGITS[other] .. ':move:')
          or wrote(m, other, f[6], DIGITS[other] .. ':pass:') then
        return judged()
      end
    end
    if status ~= 'ending' then return {'e', 'match/not_ending'} end
    if seat == tonumber(f[5]) then return {'e', 'turn/not_yours', 'confirm'} end
    if AGREE and VERDICT == '' then
      return {'ok', finish(ID, 'agreed', seat, done, redis.call('HGET', m, 'said'))}
    end
    return judged()
  end
  if KIND == 'accept' then
    local o = redis.call('HMGET', m, 'ok', 'ob', 'oa', 'os', 'oc')
    if status ~= 'playing' or o[4] ~= 'offered' or tonumber(o[3]) ~= last
        or tonumber(o[2]) == seat then
      return {'e', 'offer/none'}
    end
    redis.call('HSET', m, 'os', 'accepted')
    table_changed(ID)
    if o[1] == 'draw' then return {'ok', finish(ID, 'drawn', seat, done)} end
    -- A takeback: the seat to move is charged its time so far (no increment), and the asker's
    -- turn starts now (a deadline control gives it its full time).
    local asker, count = tonumber(o[2]), tonumber(o[5])
    redis.call('HINCRBY', m, 'uz', count + 1)
    local fields, tail, mine = {'turn', DIGITS[asker], 'tat', int(NOW_MS)}, '', 0
    if f[7] then
      local kind, base = control_of(f[7])
      local l = {[0] = tonumber(f[8]), [1] = tonumber(f[9])}
      if kind == 'fischer' then
        local t = tonumber(f[4])
        l[t] = l[t] - (NOW_MS - tonumber(f[10]))
      else
        l[asker] = base
      end
      for _, value in ipairs({'l0', int(l[0]), 'l1', int(l[1])}) do table.insert(fields, value) end
      tail = ',"left":[' .. left_text(l[0]) .. ',' .. left_text(l[1]) .. ']'
      mine = l[asker]
      schedule_lt(ID, (NOW_MS + mine) / 1000)
    end
    local SEQ = ARGV[14]
    local event = '{"seq":' .. SEQ .. ',"type":"undo","seat":' .. DIGITS[asker] .. ',"count":'
      .. int(count) .. tail .. '}'
    local answer = {'ok', append(ID, event, done, fields, SEQ)}
    if f[7] and (TIMED or is_deadline(f[7])) then
      for _, value in ipairs(notice(m, f[7], DIGITS[asker], NOW_MS + mine)) do
        table.insert(answer, value)
      end
    end
    return answer
  end
  if KIND == 'claim' then
    -- Against a partner that, to move in a match without a clock, thought CLAIM seconds.
    if status ~= 'playing' then return {'e', 'claim/not_stalled', ''} end
    if tonumber(f[4]) == seat then return {'e', 'claim/not_stalled', 'yours'} end
    if f[7] or CLAIM <= 0 or not f[10] then return {'e', 'claim/not_stalled', ''} end
    local due = tonumber(f[10]) / 1000 + CLAIM
    if due > NOW then return {'e', 'claim/not_stalled', string.format('%.3f', due - NOW)} end
    return {'ok', finish(ID, 'stalled', 1 - seat, done)}
  end
  if status == 'ending' then return refuse('match/ending') end
  if tonumber(f[4]) ~= seat then return refuse('turn/not_yours') end
  if last >= tonumber(ARGV[13]) then return refuse('match/too_long') end
  local SEQ = ARGV[14]
  local fields = {SEEN_SEAT, NOW_TEXT, 'turn', DIGITS[1 - seat]}
  if KIND == 'move' then
    -- The log's move text ('mb', each move as its JSON string) is bounded in bytes.
    local size = tonumber(f[13] or '0') + #ARGV[12]
    if size > tonumber(ARGV[20]) then return refuse('match/too_long', 'bytes') end
    table.insert(fields, 'mb')
    table.insert(fields, int(size))
  end
  local tail = ''
  if not f[7] then
    -- The partner's turn starts now: the time a claim against a staller counts from.
    table.insert(fields, 'tat')
    table.insert(fields, int(NOW_MS))
  else
    -- Charges the mover from its turn's start; Fischer adds the increment, a deadline control
    -- gives the next turn its full time again.
    local kind, base, inc = control_of(f[7])
    local left = tonumber(f[8 + seat]) - (NOW_MS - tonumber(f[10]))
    local keep = base
    if kind == 'fischer' then
      left = left + inc
      keep = left
    end
    table.insert(fields, 'l' .. DIGITS[seat])
    table.insert(fields, int(keep))
    table.insert(fields, 'tat')
    table.insert(fields, int(NOW_MS))
    tail = ',"left":' .. left_text(left)
    if not (KIND == 'move' and END) then
      schedule_lt(ID, (NOW_MS + tonumber(f[9 - seat])) / 1000)
    end
  end
  -- A match with a time control tells the partner it has the turn (or a game-over move to
  -- confirm).
  local function told(answer)
    if not f[7] or not (TIMED or is_deadline(f[7])) then return answer end
    local due = NOW_MS + tonumber(f[9 - seat])
    if KIND == 'move' and END then due = NOW_MS + patience(f[7]) * 1000 end
    for _, value in ipairs(notice(m, f[7], DIGITS[1 - seat], due)) do
      table.insert(answer, value)
    end
    return answer
  end
  if KIND == 'pass' then
    local event = '{"seq":' .. SEQ .. ',"type":"pass","seat":' .. DIGITS[seat] .. tail .. '}'
    return told({'ok', append(ID, event, done, fields, SEQ)})
  end
  local ending = 'false'
  if END then
    ending = 'true'
    recount(status, 'ending')
    for _, value in ipairs({'status', 'ending', 'ender', DIGITS[seat], 'since', NOW_TEXT}) do
      table.insert(fields, value)
    end
  end
  local claim = ''
  if END and ARGV[19] ~= '' then
    claim = ',"claim":"' .. ARGV[19] .. '"'
    table.insert(fields, 'claim')
    table.insert(fields, ARGV[19])
  end
  if END and ARGV[21] ~= '' then
    table.insert(fields, 'said')
    table.insert(fields, ARGV[21])
  end
  local event = '{"seq":' .. SEQ .. ',"type":"move","seat":' .. DIGITS[seat]
    .. ',"move":' .. ARGV[12] .. ',"end":' .. ending .. tail .. claim .. '}'
  if END and ARGV[16] ~= '' then
    -- A referee's verdict on the move joins the log with it, heard by the partner as one.
    local number = append(ID, event, done, fields, SEQ, true)
    finish(ID, ARGV[16], tonumber(ARGV[17]), '', ARGV[18], true)
    return {'ok', number}
  end
  return told({'ok', append(ID, event, done, fields, SEQ)})
end
local answer = act()
if ARGV[15] == '1' and answer[1] == 'ok' then
  table.insert(answer, redis.call('HGET', KEYS[1], 'tv') or '0')
end
return answer

local function trim(list, times, most)
  for _, id in ipairs(redis.call('LRANGE', list, most, -1)) do redis.call('HDEL', times, id) end
  redis.call('LTRIM', list, 0, most - 1)
end

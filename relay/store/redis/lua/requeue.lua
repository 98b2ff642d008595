-- Puts back at the queue's head the waiting matches a seeker took off it but did not join (its
-- own player key's seeks), in their order, those still waiting.
-- ARGV[3..] = ids of matches taken off the queue's head, oldest first
for index = #ARGV, 3, -1 do
  if redis.call('ZSCORE', WAITING, ARGV[index]) then redis.call('LPUSH', QUEUE, ARGV[index]) end
end
return 0

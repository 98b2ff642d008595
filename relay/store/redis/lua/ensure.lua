-- Queues a waiting match again if its queueing was lost (its opener stopped between the two
-- steps of a seek); answers 1 when it did.
-- ARGV[3] = the id of a match waiting for a player
if redis.call('ZSCORE', WAITING, ARGV[3]) then return 0 end
redis.call('RPUSH', QUEUE, ARGV[3])
redis.call('ZADD', WAITING, NOW_TEXT, ARGV[3])
return 1

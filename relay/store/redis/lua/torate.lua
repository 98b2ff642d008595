-- Lists a shard's matches whose rating has been pending since ARGV[1] or before, at most
-- ARGV[2]. KEYS[1] = the shard's torate set
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))

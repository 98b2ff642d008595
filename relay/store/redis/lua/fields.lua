-- Answers a hash's fields and values, flat: a plain read made through the store's own
-- connection, which rides out a node's failover as every script does (the bans, a key's
-- blocks). KEYS[1] = the hash.
return redis.call('HGETALL', KEYS[1])

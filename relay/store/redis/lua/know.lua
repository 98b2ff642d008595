-- Keeps a key's public id -> its digest, for a host's erase. KEYS[1] = the id's key;
-- ARGV[1] = the digest, ARGV[2] = seconds to keep it.
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1

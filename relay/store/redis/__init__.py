"""The Redis store: matches in one Redis, a Sentinel-watched primary or a Redis Cluster,
shared by every relay process on it."""

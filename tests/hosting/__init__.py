"""Tests of hosting for real: the Redis store, several relay processes, nginx and Apache."""

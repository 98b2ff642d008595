"""Benchmarks for the example games and the relay."""

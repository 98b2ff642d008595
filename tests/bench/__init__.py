"""Tests of the benchmark harness (that it works; never timings)."""

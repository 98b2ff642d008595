"""Tests of the relay: store conformance, HTTP endpoints, the real process end to end."""

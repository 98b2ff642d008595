"""Tests of the store interface and both backends (relay/store)."""

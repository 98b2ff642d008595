"""Tests of the box's metrics (relay/box)."""

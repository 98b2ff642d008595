"""Tests of the your-turn webhook (relay/webhook)."""

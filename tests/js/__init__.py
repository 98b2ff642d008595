"""Tests of the JavaScript host and rules (node's built-in test runner, driven by pytest)."""

"""Tests of the browser pages: how the relay serves them, and real Chromium playing through them."""

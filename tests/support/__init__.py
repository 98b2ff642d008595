"""Helpers the tests share: real relay processes and the components tests need."""

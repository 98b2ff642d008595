"""Reliability and security: schema fuzzing, hostile input, floods and soak, on real relays."""

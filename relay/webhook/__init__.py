"""The "your turn" webhook: signed deliveries to the host's receiver, throttled across
processes. Imports `relay.core`, `relay.store` and `relay.config`."""

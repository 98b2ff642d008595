"""Web Push: "your turn" with the page closed. VAPID keys (keys), the subscriptions players
give (subscription), the notices' small payloads (messages), the sender (sender) and the
once-per-turn throttle (throttle). Imports `relay.core` and `relay.store`."""

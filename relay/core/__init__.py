"""The relay's core: the data model of matches, their events, errors, clocks, turns, and the
rules of the lobby, players and rematch. Pure Python: it imports nothing of aiohttp or Redis,
and nothing of the relay outside `relay.core`."""

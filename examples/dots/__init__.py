"""Dots and Boxes: rules, a bot, a networked Game and a terminal client; started from the
skeleton `python -m sdk.new dots` writes, on the shared board-game base."""

"""The game packages installed beside the relay, found by their entry points and read at start
(`relay.games.installed`)."""

from __future__ import annotations

from relay.games.installed import GROUP, installed_games

__all__ = ["GROUP", "installed_games"]

"""Reads the installed game packages: every entry point in the group `movewire.games`, loaded,
read by its fields (`relay.core.games.read_game`) and checked; a broken one is refused with a
message that names it, and the relay does not start."""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from relay.core.games import Game, GamePackageError, check_names, read_game, source_of

__all__ = ["GROUP", "installed_games", "load"]

GROUP = "movewire.games"
"""The entry-point group of game packages (the SDK's `sdk.package.ENTRY_POINT_GROUP`)."""

NOT_LOADED = "{source} cannot be loaded from {value!r}: {error}"


def _dist(entry: EntryPoint) -> str:
    """Returns the distribution that declares entry, as 'name version', or ''."""
    dist = entry.dist
    return "" if dist is None else f"{dist.name} {dist.version}"


def load(entry: EntryPoint) -> Game:
    """Returns the game that entry names. Raises GamePackageError, naming the package, when it
    cannot be imported or is not a game package."""
    dist = _dist(entry)
    try:
        value = entry.load()
    except Exception as exc:  # whatever importing a broken package raises
        error = f"{type(exc).__name__}: {exc}"
        source = source_of(entry.name, dist)
        message = NOT_LOADED.format(source=source, value=entry.value, error=error)
        raise GamePackageError(message) from exc
    return read_game(entry.name, value, dist)


def installed_games(group: str = GROUP) -> tuple[Game, ...]:
    """Returns every game package installed in group, by name. Raises GamePackageError, naming
    the package, for the first that cannot be served or whose name another takes."""
    found = entry_points(group=group)
    games = tuple(sorted((load(entry) for entry in found), key=lambda game: game.name))
    check_names(games)
    return games

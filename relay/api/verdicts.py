"""The referees a host turned on (`--referee GAME`), run by the relay process that takes a
game-ending move or a confirm: it reads the log, judges, and hands the verdict to the store
with the write it judges (`Action.ending`), which applies both at once, only at the position
judged (docs/protocol.md#verdicts).

A referee that raises, or answers what is not a verdict, is logged with its game's name and
the match is handled as if its game had none: a dispute ends 'disputed', and a game-ending
move waits for the partner's confirm."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping

from relay.core.errors import RelayError
from relay.core.model import Action, Status
from relay.core.referee import (
    Play,
    Referee,
    dispute_ending,
    end_ending,
    plays_of,
    read_verdict,
    turn_after,
)
from relay.core.verdicts import Ending
from relay.store.base import Store

__all__ = ["NO_REFEREE", "Verdicts", "pick_referees"]

log = logging.getLogger("relay")

NO_REFEREE = "--referee {!r}: no installed game of that name ships a referee (games that do: {})"


def pick_referees(
    games: Iterable[str], available: Mapping[str, Callable[[], object]]
) -> dict[str, Referee]:
    """Returns the referee of each game named, made by its factory in `available` (game name
    -> a zero-argument class or function, as the installed game packages give them); raises
    ValueError naming a game without one, or whose referee has no judge()."""
    picked: dict[str, Referee] = {}
    for game in games:
        make = available.get(game)
        if make is None:
            raise ValueError(NO_REFEREE.format(game, ", ".join(sorted(available)) or "none"))
        made = make()
        if not callable(getattr(made, "judge", None)):
            raise ValueError(f"--referee {game!r}: its referee {made!r} has no judge() method")
        picked[game] = made  # type: ignore[assignment]  # checked above, by its shape
    return picked


class Verdicts:
    """The referees of one relay process, by game name, judging over one store."""

    def __init__(self, store: Store, referees: Mapping[str, Referee]) -> None:
        self.store = store
        self.referees = dict(referees)

    def __bool__(self) -> bool:
        return bool(self.referees)

    def _judge(self, game: str, plays: list[Play], ending: bool) -> Ending | None:
        """Returns the ending the game's referee gives to plays (the last one ending the game,
        or disputed), or None when it fails (logged)."""
        referee = self.referees[game]
        try:
            ruling = read_verdict(referee.judge(tuple(plays)), plays)
            return end_ending(ruling, plays) if ending else dispute_ending(ruling, plays)
        except Exception:
            log.exception(
                "the referee of game %r failed on a match of %d plays; the match is judged "
                "as if the game had none",
                game,
                len(plays),
            )
            return None

    async def on_end(self, match: str, action: Action) -> Action:
        """Returns a game-ending move of a refereed game with the verdict on it (the plays so
        far and this one), which the store writes with the move: its ended event joins the
        log with the move, in the same write. Returns the move as it is when the game has no
        referee, the referee failed, or the move will be refused (not this position, not in
        play): the store answers it as without one."""
        try:
            game, status, events = await self.store.judged(match)
        except RelayError:
            return action  # the store refuses the move too, with this error
        last = len(events)
        if game not in self.referees or status is not Status.PLAYING or last != action.after:
            return action
        seat = turn_after(events[-1])
        if seat is None:
            return action
        plays = plays_of(events, last)
        plays.append(Play(last + 1, seat, action.move, True))
        ending = self._judge(game, plays, True)
        return action if ending is None else action._replace(ending=ending)

    async def on_confirm(self, match: str, after: int, agree: bool) -> Ending | None:
        """Returns the verdict a confirm at event after writes in a refereed game: on the
        game-ending move it confirms or disputes, or on the partner's move or pass it disputes;
        None when the game has no referee, the referee failed, or there is nothing to judge
        (the store then answers the confirm as without one)."""
        game, status, events = await self.store.judged(match)
        if game not in self.referees or len(events) != after:
            return None
        if status is Status.ENDING:
            ending = True
        elif status is Status.PLAYING and not agree:
            ending = False
        else:
            return None
        plays = plays_of(events, after)
        if not plays or plays[-1].seq != after:
            return None  # the last event is no play (started, undo): nothing to dispute
        return self._judge(game, plays, ending)

"""The referees a host turned on (`--referee GAME`), run by the relay process that takes a
game-ending move or a confirm: it checks the writer's token, reads the log, judges off the
event loop (relay.api.judging), and hands the verdict to the store with the write it judges
(`Action.ending`), which applies both at once, only at the position judged
(docs/protocol.md#verdicts). Nothing is read or judged for a token that opens no seat, nor for
a write the store would refuse as stale or out of turn.

A referee that raises, answers what is not a verdict, or gives no verdict within the budget
(`--referee-budget`) is logged with its game's name and the match is handled as if its game
had none: a dispute ends 'disputed', and a game-ending move waits for the partner's
confirm."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping

from relay.api.judging import BUDGET, Judging, OverBudget
from relay.core.model import Action, Event, Status
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
    """The referees of one relay process, by game name, judging over one store on the
    judging threads (relay.api.judging), each judgement within the budget."""

    def __init__(
        self, store: Store, referees: Mapping[str, Referee], budget: float = BUDGET
    ) -> None:
        self.store = store
        self.referees = dict(referees)
        self.judging = Judging(budget)
        self.over_budget = 0
        """Judgements given up at the budget (relay_referee_over_budget_total)."""

    def __bool__(self) -> bool:
        return bool(self.referees)

    async def _judge(
        self, game: str, events: list[Event], last: int, extra: Play | None, ending: bool
    ) -> Ending | None:
        """Returns the ending the game's referee gives to the plays of the log up to event
        last (and `extra`, a game-ending move not yet written), the last one ending the game
        or disputed; None when there is nothing to judge, or when the referee failed or ran
        past the budget (logged)."""
        referee = self.referees[game]

        def rule() -> Ending | None:
            plays = plays_of(events, last)
            if extra is not None:
                plays.append(extra)
            elif not plays or plays[-1].seq != last:
                return None  # the last event is no play (started, undo): nothing to dispute
            ruling = read_verdict(referee.judge(tuple(plays)), plays)
            return end_ending(ruling, plays) if ending else dispute_ending(ruling, plays)

        try:
            return await self.judging.run(rule)
        except OverBudget as exc:
            self.over_budget += 1
            log.warning(
                "the referee of game %r gave %s on a match of %d events; the match is judged "
                "as if the game had none",
                game,
                exc,
                last,
            )
        except Exception:
            log.exception(
                "the referee of game %r failed on a match of %d events; the match is judged "
                "as if the game had none",
                game,
                last,
            )
        return None

    async def on_end(self, match: str, token: str, action: Action) -> Action:
        """Returns a game-ending move of a refereed game with the verdict on it (the plays so
        far and this one), which the store writes with the move: its ended event joins the
        log with the move, in the same write. Returns the move as it is when the game has no
        referee, the referee failed, or the move will be refused (not this position, not in
        play, not the seat's turn): the store answers it as without one. Raises, having read
        nothing else, when the token opens no seat of the match."""
        after = -1 if action.after is None else action.after
        found = await self.store.matches.judged(match, token, after, self.referees)
        if found is None or found.status is not Status.PLAYING:
            return action
        events = found.events
        if turn_after(events[-1]) != found.seat:
            return action
        play = Play(after + 1, found.seat, action.move, True)
        ending = await self._judge(found.game, events, after, play, True)
        return action if ending is None else action._replace(ending=ending)

    async def on_confirm(self, match: str, token: str, after: int, agree: bool) -> Ending | None:
        """Returns the verdict a confirm at event after writes in a refereed game: on the
        game-ending move it confirms or disputes, or on the partner's move or pass it disputes;
        None when the game has no referee, the referee failed, or there is nothing to judge
        (the store then answers the confirm as without one). Raises, having read nothing
        else, when the token opens no seat of the match."""
        found = await self.store.matches.judged(match, token, after, self.referees)
        if found is None:
            return None
        if found.status is Status.ENDING:
            ending = True
        elif found.status is Status.PLAYING and not agree:
            ending = False
        else:
            return None
        if turn_after(found.events[-1]) != found.seat:
            return None  # the seat judges only its partner's last play
        return await self._judge(found.game, found.events, after, None, ending)

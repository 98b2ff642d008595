"""Writing to a match of the memory store: a seat's move, pass, resignation, confirm, accept
or claim applied once, and the end of a match with its rating (the twin of the Redis store's
act and rate scripts)."""

from __future__ import annotations

import orjson

from relay.core.clock import millis
from relay.core.errors import RelayError
from relay.core.events import ended_event, move_event, pass_event
from relay.core.model import Action, finished, too_long, too_many_bytes
from relay.core.players import patience
from relay.core.rated import RatingRules, score_of
from relay.core.reasons import Reason
from relay.core.table import not_stalled, undo_event
from relay.core.verdicts import dispute_tail, said_tail
from relay.store.memory.match import (
    ENDING,
    EXPIRED,
    FINISHED,
    NO_WRITE,
    PLAYING,
    PLAYS,
    WAITING,
    Match,
    Write,
    new_write,
)
from relay.store.memory.registry import Registry

__all__ = ["act_hashed", "finish"]


MAY_END = frozenset(("resign", "confirm", "accept", "claim"))
"""The writes that may end a match (and a move with a verdict): each tells the end sink."""


def act_hashed(reg: Registry, match: str, digest: str, action: Action, now: float) -> int:
    """Matches.act at once (the memory store needs no waiting to write), for a token
    already hashed (hash_token): the Api keeps the digest of a seat's token, not hashing it
    on every move. A write that may end the match tells the end sink (Hooks.ended)."""
    seq = _act(reg, match, digest, action, now)
    if reg.ended is not None and (action.kind in MAY_END or action.ending is not None):
        reg.ended(match)
    return seq


def _act(reg: Registry, match: str, digest: str, action: Action, now: float) -> int:
    state = reg.matches.get(match)
    if state is None:
        raise RelayError("match/unknown", f"No match {match!r}.")
    seat = state.seat_of(digest)
    reg.mark_present(state, seat, now)
    status = state.status
    kind = action.kind
    if kind == "cancel":
        if status is EXPIRED:
            return 0
        if status is not WAITING:
            raise RelayError("match/started")
        reg.expire(state, now)
        return 0
    if status is EXPIRED:
        raise RelayError("match/expired")
    if status is WAITING:
        raise RelayError("match/not_started")
    late = status is PLAYING and state.control is not None and state.is_out(now)
    if late:
        # The seat to move ran out of time before this write: the match ended then.
        finish(reg, state, Reason.TIMEOUT, state.turn or 0, NO_WRITE, now)
        status = FINISHED
    done: Write = new_write(Write, (seat, kind, action.move, action.end, action.agree))
    events = state.events
    if kind == "resign":
        if status is FINISHED:
            last = state.done[-1]
            if last.seat == seat and last.kind == "resign":
                return len(events)
            raise finished(late)
        return finish(reg, state, Reason.RESIGNED, seat, done, now)
    after = action.after if action.after is not None else -1
    if 0 <= after < len(events):
        # A write sent again (its answer was lost): it made event after + 1, and is still
        # its seat's latest write (as the Redis store keeps only that one).
        later = state.done[after + 1 :]
        if state.done[after] == done and all(write.seat != seat for write in later):
            return after + 1
        if status is FINISHED:
            raise finished(late)
        raise RelayError("turn/stale", f"'after' is {after} but the last event is {len(events)}.")
    if after != len(events):
        raise RelayError("turn/stale", f"'after' is {after} but the last event is {len(events)}.")
    if status is FINISHED:
        raise finished(late)
    if kind == "confirm":
        last = state.done[-1]
        disputed = last.seat == 1 - seat and last.kind in PLAYS
        if status is PLAYING and not action.agree and disputed:
            # The seat to move disputes the partner's last move or pass (its game says it
            # ended the game, or broke the rules, or the partner had a move to make).
            return _judged(reg, state, action, seat, done, now)
        if status is not ENDING:
            raise RelayError("match/not_ending")
        if seat == state.ender:
            raise RelayError("turn/not_yours", "The partner confirms the end, not its sender.")
        if action.agree and action.ending is None:
            return finish(reg, state, Reason.AGREED, seat, done, now, state.detail)
        return _judged(reg, state, action, seat, done, now)
    if kind == "accept":
        return _accept(reg, state, seat, done, now)
    if kind == "claim":
        return _claim(reg, state, seat, done, now)
    if status is ENDING:
        raise RelayError("match/ending")
    if state.turn != seat:
        raise RelayError("turn/not_yours")
    if len(events) >= reg.settings.max_events:
        raise too_long(reg.settings.max_events)
    if kind == "move":
        size = state.move_bytes + len(orjson.dumps(action.move))
        if size > reg.settings.max_log_bytes:
            raise too_many_bytes(reg.settings.max_log_bytes)
        state.move_bytes = size
    seq = after + 1
    state.turn = 1 - seat
    if state.control is None:
        left = None
        state.turn_at = millis(now)
    else:
        left = state.charge(seat, now)
    if kind == "pass":
        seq = state.append(pass_event(seq, seat, left), done)
    elif action.end:
        state.status = ENDING
        state.ender = seat
        state.since = now
        state.claim = claim = action.claim
        state.detail = said_tail(action.detail)
        event = move_event(seq, seat, action.move, True, left, claim)
        ending = action.ending
        if ending is not None:
            # A referee's verdict on the move joins the log with it: one wake for both.
            state.events.append(event)
            state.done.append(done)
            tail = ending.tail()
            finish(reg, state, ending.reason, ending.seat, NO_WRITE, now, tail)
            return seq
        seq = state.append(event, done)
    else:
        seq = state.append(move_event(seq, seat, action.move, False, left), done)
    if (
        reg.turns is not None
        and state.control is not None
        and (reg.timed or state.is_correspondence())
    ):
        # The partner now has the turn, or, after a game-over move, its confirm to give.
        due = (state.turn_at + state.clock[1 - seat]) / 1000
        if state.status is ENDING:
            due = now + patience(state.control, reg.settings.grace)
        reg.tell(state, 1 - seat, seq, due)
    return seq


def _accept(reg: Registry, state: Match, seat: int, done: Write, now: float) -> int:
    """Accepts the partner's standing offer: a draw ends the match 'drawn'; a takeback
    appends its undo event and gives the asker the turn."""
    events = state.events
    offer = state.table.offer_accepted(seat, len(events), state.status is PLAYING)
    reg.table_changed(state)
    if offer.kind == "draw":
        return finish(reg, state, Reason.DRAWN, seat, done, now)
    state.table.undone += offer.count + 1
    left = state.rewind(offer.by, now)
    seq = state.append(undo_event(len(events) + 1, offer.by, offer.count, left), done)
    if (
        reg.turns is not None
        and state.control is not None
        and (reg.timed or state.is_correspondence())
    ):
        reg.tell(state, offer.by, seq, (state.turn_at + state.clock[offer.by]) / 1000)
    return seq


def _claim(reg: Registry, state: Match, seat: int, done: Write, now: float) -> int:
    """Ends the match 'stalled' when its partner, to move without a clock, has thought
    for --claim-after seconds; raises claim/not_stalled before."""
    due = reg.claim_at(state)
    if state.turn == seat:
        raise not_stalled(None, True)
    if due is None or state.turn != 1 - seat or due > now:
        raise not_stalled(None if due is None else due - now, False)
    return finish(reg, state, Reason.STALLED, 1 - seat, done, now)


def _judged(reg: Registry, state: Match, action: Action, seat: int, done: Write, now: float) -> int:
    """Ends the match at a confirm that disputes the last play, or that carries a
    referee's verdict on it: the verdict's ending, else 'disputed' with the play's number
    and the disputer's reason."""
    ending = action.ending
    if ending is not None:
        return finish(reg, state, ending.reason, ending.seat, done, now, ending.tail())
    tail = dispute_tail(len(state.events), action.move)
    return finish(reg, state, Reason.DISPUTED, seat, done, now, tail)


def finish(
    reg: Registry, state: Match, reason: str, seat: int, done: Write, now: float, tail: bytes = b""
) -> int:
    """Ends the match for reason, seat the one it names, with the ended event (recording
    the write done, if one ended it) and its rating."""
    reg.endings[reason] += 1
    if reason == Reason.TIMEOUT:
        state.clock[seat] = 0  # its time ran out: the match's clock reads so
    state.status = FINISHED
    state.since = now
    state.turn = None
    reg.free_room(state)
    seq = state.append(ended_event(len(state.events) + 1, reason, seat, tail), done)
    rated = state.players[0] and state.players[1] and not state.casual
    if reg.settings.ratings is not None and rated:
        _rate(reg, state, reg.settings.ratings, now)
    return seq


def _rate(reg: Registry, state: Match, rules: RatingRules, now: float) -> None:
    """Rates a match that just ended between two player keys, if its result is rated:
    before anything is awaited, so once (docs/ratings.md)."""
    if not rules.rates(state.game):
        return
    score = score_of(orjson.loads(state.events[-1]), state.claim, rules)
    if score is not None:
        players, names = state.players, state.table.names
        reg.ratings.rate(
            state.game, state.id, (players[0], players[1]), (names[0], names[1]), score, now,
            rules,
        )  # fmt: skip

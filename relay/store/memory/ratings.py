"""Ratings in the memory store: each key's standing per game, and each rated match's change
(docs/ratings.md). Written at once, when a match ends, so each match is rated once."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from relay.core.moderation import SeatVoid, Voided
from relay.core.rated import RatingRules
from relay.core.ratings import Rating, new_rating, shown
from relay.core.standings import (
    DAY,
    HISTORY,
    VOID_DAYS,
    MatchRating,
    Standing,
    board_fit,
    board_rows,
    met,
    pair_of,
    public_id,
    rated_pair,
)
from relay.core.standings import standing_answer as answer

__all__ = ["MemoryRatings"]

SWEEP_EVERY = 3600.0
"""Seconds between the reaper's passes over the standings for those idle past their keep."""

PRUNE_PAIRS = 10_000
"""Pairs of keys kept before those without a rated result in the last day are dropped."""


@dataclass(slots=True)
class _Record:
    """What a rated match changed, kept VOID_DAYS so that a host may void it."""

    game: str
    digests: tuple[str, str]
    before: tuple[Rating, Rating]
    after: tuple[Rating, Rating]
    at: float
    voided: Voided | None = None


class MemoryRatings:
    """Standings by game and key digest; the games each digest has ratings in; each rated
    match's ratings, by match id. Ratings outlive matches: a key's rating in a game is
    forgotten --rating-days after its last rated game there (forget_idle)."""

    def __init__(self) -> None:
        self._standings: dict[str, dict[str, Standing]] = {}
        """Game -> key digest -> standing."""
        self._games: dict[str, list[str]] = {}
        """Key digest -> the games it has ratings in, in the order it first played them."""
        self._matches: dict[str, MatchRating] = {}
        self._pairs: dict[tuple[str, str, str], list[float]] = {}
        """Game and pair of key digests -> when their rated results of the last day came."""
        self._swept = 0.0
        """When sweep last forgot idle standings."""
        self._records: dict[str, _Record] = {}
        """Match id -> what its rating changed, for VOID_DAYS (void)."""

    def rating_of(self, game: str, digest: str) -> Rating | None:
        """Returns the key's rating in the game (None: it has none yet)."""
        standing = self._standings.get(game, {}).get(digest)
        return None if standing is None else standing.rating

    def shown_of(self, game: str, digest: str, now: float) -> str:
        """Returns the key's rating in the game as shown (a new key's: '1500?')."""
        rating = self.rating_of(game, digest)
        return shown(new_rating() if rating is None else rating, now)

    def _standing(self, game: str, digest: str) -> Standing:
        players = self._standings.setdefault(game, {})
        standing = players.get(digest)
        if standing is None:
            standing = players[digest] = Standing()
            self._games.setdefault(digest, []).append(game)
        return standing

    def rate(
        self,
        game: str,
        match: str,
        digests: tuple[str, str],
        names: tuple[str | None, str | None],
        score: float,
        now: float,
        rules: RatingRules,
    ) -> MatchRating | None:
        """Rates a match seat 0 scored `score` in, once (a second call changes nothing);
        returns None, rating nothing, when the pair had PAIR_DAILY rated results in the
        last day (RatingRules.pair_daily)."""
        done = self._matches.get(match)
        if done is not None:
            return done
        if len(self._pairs) >= PRUNE_PAIRS:  # the pairs of no rated result in a day go
            self._pairs = {key: t for key, t in self._pairs.items() if t[-1] > now - DAY}
        pair = pair_of(game, *digests)
        recent = [at for at in self._pairs.get(pair, ()) if at > now - DAY]
        if len(recent) >= rules.pair_daily:
            self._pairs[pair] = recent
            return None
        self._pairs[pair] = [*recent, now]
        zero, one = self._standing(game, digests[0]), self._standing(game, digests[1])
        before = (zero.rating, one.rating)
        new_zero, new_one, entry_zero, entry_one, done = rated_pair(
            match, zero.rating, one.rating, score, now
        )
        for standing, rating, entry, name, opponent in (
            (zero, new_zero, entry_zero, names[0], digests[1]),
            (one, new_one, entry_one, names[1], digests[0]),
        ):
            standing.rating = rating
            standing.version += 1
            standing.name = name
            standing.history.insert(0, entry)
            del standing.history[HISTORY:]
            standing.first = standing.first or now
            standing.opponents = met(standing.opponents, opponent)
            standing.listed = board_fit(rating, standing.first, standing.opponents, now, rules)
        self._matches[match] = done
        self._records[match] = _Record(game, digests, before, (new_zero, new_one), now)
        return done

    def void(self, match: str, game: str | None, now: float, rules: RatingRules) -> Voided:
        """Takes back a rated match's rating from both seats, once (Moderation.void)."""
        record = self._records.get(match)
        if record is None or (game is not None and record.game != game):
            return Voided(match, game or "", "not_rated")
        if record.voided is not None:
            return replace(record.voided, state="already")
        seats = []
        for seat, digest in enumerate(record.digests):
            standing = self._standings.get(record.game, {}).get(digest)
            if standing is None:  # forgotten since, idle past RatingRules.keep
                continue
            before, after = record.before[seat], record.after[seat]
            exact = standing.rating == after
            if exact:
                standing.rating = before
            else:
                taken = standing.rating.rating - (after.rating - before.rating)
                games = max(0, standing.rating.games - 1)
                standing.rating = replace(standing.rating, rating=taken, games=games)
            standing.version += 1
            standing.history = [entry for entry in standing.history if entry.match != match]
            standing.listed = standing.listed and board_fit(
                standing.rating, standing.first, standing.opponents, now, rules
            )
            seats.append(
                SeatVoid(
                    public_id(digest), before.rating, after.rating, standing.rating.rating, exact
                )
            )
            if exact and before.games == 0 and not standing.history:
                self._drop(record.game, digest)
        record.voided = Voided(match, record.game, "voided", tuple(seats))
        self._matches.pop(match, None)
        return record.voided

    def _drop(self, game: str, digest: str) -> None:
        """Forgets a key's standing in a game (a voided first game leaves none)."""
        self._standings.get(game, {}).pop(digest, None)
        games = self._games.get(digest, [])
        if game in games:
            games.remove(game)
        if not games:
            self._games.pop(digest, None)

    def is_voided(self, match: str) -> bool:
        """Returns whether a host voided the match's rating."""
        record = self._records.get(match)
        return record is not None and record.voided is not None

    def erase_name(self, digest: str) -> int:
        """Forgets the name a key's standings show; returns in how many games it had one."""
        erased = 0
        for game in self._games.get(digest, []):
            standing = self._standings[game][digest]
            if standing.name is not None:
                standing.name = None
                erased += 1
        return erased

    def has_standing(self, digest: str) -> bool:
        """Returns whether the key has a rating in some game."""
        return digest in self._games

    def sweep(self, now: float, keep: float) -> None:
        """Forgets the standings idle past `keep` (forget_idle), at most once a SWEEP_EVERY."""
        if now - self._swept >= SWEEP_EVERY:
            self._swept = now
            self.forget_idle(now, keep)
            horizon = now - VOID_DAYS * DAY
            self._records = {m: kept for m, kept in self._records.items() if kept.at > horizon}

    def forget_idle(self, now: float, keep: float) -> int:
        """Forgets the standings whose last rated game is `keep` seconds old or more (and
        the matches' ratings no standing needs); returns how many standings went."""
        gone = 0
        for game, players in self._standings.items():
            for digest in [d for d, kept in players.items() if (kept.rating.at or 0) <= now - keep]:
                del players[digest]
                games = self._games.get(digest, [])
                if game in games:
                    games.remove(game)
                if not games:
                    self._games.pop(digest, None)
                gone += 1
        self._standings = {game: players for game, players in self._standings.items() if players}
        return gone

    def of_match(self, match: str) -> MatchRating | None:
        """Returns a rated match's ratings (None: not rated)."""
        return self._matches.get(match)

    def forget_match(self, match: str) -> None:
        """Drops a forgotten match's ratings (the standings keep their history)."""
        self._matches.pop(match, None)

    def player(self, digest: str, game: str | None, now: float) -> list[dict[str, Any]]:
        """Returns GET /v1/player/ratings's list for a key digest, one game or every one."""
        games = self._games.get(digest, [])
        return [
            answer(name, self._standings[name][digest], now)
            for name in games
            if game is None or name == game
        ]

    def board(self, game: str, limit: int, now: float) -> list[dict[str, Any]]:
        """Returns the game's leaderboard rows (established ratings, best first)."""
        players = self._standings.get(game, {})
        found = [(d, kept.rating, kept.name) for d, kept in players.items() if kept.listed]
        return board_rows(found, limit, now)

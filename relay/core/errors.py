"""Error codes of the wire protocol and the exception that carries them."""

from __future__ import annotations

__all__ = ["CODES", "RelayError"]

#: Every error code the relay answers with, its HTTP status and what it means.
CODES: dict[str, tuple[int, str]] = {
    # request/...: the request itself is malformed.
    "request/bad_json": (400, "The body is not valid JSON (UTF-8)."),
    "request/invalid": (400, "A field is missing, of the wrong type or out of range."),
    "request/content_type": (415, "The body must be sent as application/json."),
    "request/too_large": (413, "The body is larger than the relay accepts."),
    "request/timeout": (408, "The request did not arrive in time; the connection is closed."),
    # route/...: no such endpoint.
    "route/not_found": (404, "No endpoint at this path."),
    "route/method": (405, "This endpoint does not take this method."),
    # auth/...: the seat token.
    "auth/required": (401, "This call needs the seat token in 'Authorization: Bearer <token>'."),
    "auth/bad_token": (403, "The token is not a seat token of this match."),
    # match/...: the match as a whole.
    "match/unknown": (404, "No match with this id (never existed, or expired after it ended)."),
    "match/expired": (410, "The seek was cancelled, or dropped as its seeker stopped polling."),
    "match/not_started": (
        409,
        "The match has not started: it waits for a second player, or for its first to poll again.",
    ),
    "match/started": (409, "The match has started; a seek can be cancelled only while waiting."),
    "match/ending": (409, "The last move ended the game; only the partner's confirm is expected."),
    "match/finished": (409, "The match is over and accepts nothing more."),
    "match/too_long": (
        409,
        "The match has as many events, or as many bytes of move text, as the relay keeps: no "
        "more moves (or passes, at the events' limit); a seat can still resign.",
    ),
    "match/behind": (
        409,
        "'after' is above the match's last event: the log lost events the client saw (a "
        "failover of the store); read from the log's end and post your last write again.",
    ),
    "match/not_ending": (
        409,
        "No game-over move waits for a confirm, and no partner's move to dispute.",
    ),
    # rematch/...: playing again after a match ended.
    "rematch/not_finished": (409, "A rematch can be offered only once the match is over."),
    "rematch/accepted": (409, "Both seats accepted the rematch; it cannot be declined now."),
    # offer/..., takeback/..., claim/..., chat/...: the table around a match.
    "offer/none": (409, "No offer of the partner stands at this position to answer."),
    "offer/pending": (409, "An offer stands already: answer it, or withdraw your own, first."),
    "offer/declined": (
        409,
        "The partner declined this offer at this position: make a move before offering again.",
    ),
    "offer/not_playing": (409, "Offers are made only while the match is played."),
    "offer/too_fast": (
        429,
        "Too many offers and withdrawals from this seat; retry after the given time.",
    ),
    "takeback/none": (409, "There is no move of yours since the start to take back."),
    "claim/not_stalled": (
        409,
        "The partner is not stalling: it is your turn, the match has a clock, or the claim "
        "time has not passed yet.",
    ),
    "chat/off": (403, "This relay carries no chat, or not to spectators."),
    "chat/full": (409, "The match's chat holds as many lines as the relay keeps."),
    "name/taken": (
        409,
        "The name looks like the name another player shows: choose another.",
    ),
    "chat/too_fast": (429, "Too many chat lines from this seat; retry after the given time."),
    # room/...: private rooms.
    "room/full": (409, "Two players already hold this room."),
    "room/version_mismatch": (409, "The player waiting in this room seeks another game version."),
    "room/control_mismatch": (409, "The player waiting in this room seeks another time control."),
    "room/same_player": (409, "The seek waiting in this room has the same player key."),
    "room/blocked": (
        409,
        "The player waiting in this room blocked this player key, or this key blocked it.",
    ),
    # turn/...: the turn rule.
    "turn/not_yours": (409, "It is the other seat's turn."),
    "turn/stale": (409, "'after' is not the number of the match's last event."),
    # move/...: the move text.
    "move/too_long": (413, "The move is longer than the relay accepts."),
    # limit/...: rate and capacity limits; the answer carries Retry-After.
    "limit/requests": (429, "Too many requests from this client; retry after the given time."),
    "limit/seeks": (429, "Too many seeks from this client; retry after the given time."),
    "limit/polls": (429, "Too many polls held at once for this seat."),
    "limit/waiting": (429, "Too many matches waiting for players of this game."),
    # player/...: player keys.
    "player/too_many": (429, "This player key already has 100 matches not finished."),
    "player/banned": (
        403,
        "The host banned this player key or this address from new matches for a time.",
    ),
    "player/not_seated": (403, "This player key sat in neither seat of the match."),
    # block/..., report/...: a player's own moderation.
    "block/no_key": (409, "The partner sat without a player key: there is nobody to block."),
    "block/full": (409, "This player key blocks or mutes as many keys as the relay keeps."),
    "report/too_fast": (429, "Too many reports from this client; retry after the given time."),
    # passkey/..., code/...: passkeys and transfer codes (docs/protocol.md#passkeys).
    "passkey/off": (
        404,
        "This relay has no passkey settings (relying-party id, origin, secret): passkeys and "
        "transfer codes are off.",
    ),
    "passkey/challenge": (
        409,
        "The challenge is unknown, answered already or expired: ask for new options.",
    ),
    "passkey/refused": (
        403,
        "The authenticator's answer did not verify (origin, relying party, challenge, "
        "signature), or no player key has this passkey.",
    ),
    "passkey/exists": (409, "This passkey is bound to a player key already."),
    "passkey/full": (409, "This player key has as many passkeys as the relay keeps."),
    "passkey/busy": (
        429,
        "Too many challenges pending for this player key, or on the relay; retry after the "
        "given time.",
    ),
    "code/unknown": (403, "No such transfer code: mistyped, used already, or expired."),
    "code/too_many": (
        429,
        "This player key made as many transfer codes as it may for now, or the relay holds "
        "as many as it keeps; retry after the given time.",
    ),
    "limit/signins": (
        429,
        "Too many sign-ins or passkey options from this client; retry after the given time.",
    ),
    # push/...: Web Push (docs/protocol.md#web-push).
    "push/off": (404, "This relay has no VAPID key: it pushes nothing to browsers."),
    "push/subscription": (400, "The push subscription is not one the relay sends to."),
    "push/full": (503, "The relay keeps as many push subscriptions as it can; retry later."),
    "limit/push": (
        429,
        "Too many push subscription changes from this client; retry after the given time.",
    ),
    # challenge/..., follow/...: challenges between player keys (docs/protocol.md#challenges).
    "player/unknown": (404, "The relay knows no player key by this public id."),
    "game/unknown": (404, "This relay hosts game packages, and not this game."),
    "challenge/self": (409, "A player key cannot challenge itself."),
    "challenge/blocked": (
        409,
        "The challenged key blocked this player key, or this key blocked it.",
    ),
    "challenge/open": (
        409,
        "This key has an open challenge to that key already: withdraw it first.",
    ),
    "challenge/too_many": (409, "This player key has as many open challenges as it may."),
    "challenge/full": (
        409,
        "The challenged key has as many open challenges as it keeps, or as many from keys it "
        "does not follow.",
    ),
    "challenge/too_fast": (
        429,
        "Too many challenges from this player key or this client; retry after the given time.",
    ),
    "challenge/unknown": (
        404,
        "No such challenge for this key to give this answer (or it was forgotten).",
    ),
    "challenge/settled": (
        409,
        "The challenge was accepted, declined, withdrawn or lapsed already.",
    ),
    "follow/full": (409, "This player key follows as many others as it may."),
    # admin/...: the host's admin API.
    "admin/off": (404, "This relay has no admin secret: its admin API is off."),
    "admin/bad_secret": (403, "The bearer is not this relay's admin secret."),
    "admin/too_many": (409, "The store holds as many bans as it keeps; lift some first."),
    # server/...: the relay itself.
    "server/unavailable": (503, "The match store cannot be reached; retry shortly."),
    "server/shutting_down": (
        503,
        "The relay shut down before it could answer; retry (on another process).",
    ),
    "server/internal": (500, "An unexpected error; it has been logged."),
}


class RelayError(Exception):
    """Raised when a request cannot be served; carries a documented error code."""

    def __init__(self, code: str, message: str = "", retry_after: float | None = None) -> None:
        self.code = code
        self.status = CODES[code][0]
        self.message = message or CODES[code][1]
        self.retry_after = retry_after
        super().__init__(f"{code}: {self.message}")

    def __repr__(self) -> str:
        return f"RelayError({self.code!r}, {self.message!r})"

"""The route table of protocol v1: the front, the aiohttp app and OpenAPI are all built from it.

A new endpoint is one row here plus the Api method the row names (and, for a new body or
answer shape, its schema in relay/api/schemas/); tests hold the three views to this table."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["JSON", "ROUTES", "Route", "Router"]

JSON = "application/json"

MATCH_ID = "[A-Za-z0-9_.~-]+"
"""What the front takes as a {match} path segment (a match id is URL-safe base64); any other
segment, percent-encoded ones included, is left to aiohttp, which decodes and routes it."""


Part = Literal[
    "players", "moves", "matches", "lobby", "table", "moderation", "passkeys", "push",
    "challenges", "service",
]  # fmt: skip
"""The parts of the Api (relay.api.endpoints): each answers its routes."""


@dataclass(frozen=True, slots=True)
class Route:
    """One endpoint: its method and path, the Api method serving it, and what OpenAPI says."""

    method: Literal["GET", "POST"]
    path: str
    """The path template; '{match}' stands for a match id, '{game}' for a game key (read
    alike, as the call's `match`)."""
    operation: str
    """The OpenAPI operationId."""
    endpoint: str
    """The name of the Api coroutine method that answers it."""
    summary: str
    ok: int = 200
    """The status of a successful answer."""
    reply: str | None = None
    """The schema of a successful answer's body (relay/api/schemas/); None: described in
    relay/api/openapi.py."""
    body: str | None = None
    """The schema of the JSON request body, if the endpoint takes one."""
    query: tuple[str, ...] = ()
    """The query parameters it reads."""
    seat: Literal["none", "optional", "required", "player", "admin"] = "none"
    """Whether it needs a seat token (Authorization: Bearer; a player key is one too), takes
    one, takes none, needs a player key (and no match), or the host's admin secret."""
    errors: tuple[int, ...] = ()
    """The error statuses it may answer (each with its codes, from relay/core/errors.py)."""
    limited: bool = True
    """Whether the request counts against the client's request rate (--requests-per-second)."""
    content_type: str = JSON
    """The media type of a successful answer."""
    part: Part = "service"
    """Which part of the Api answers it (its module in relay.api, or the Api itself for the
    service's own routes)."""


_COMMON = (400, 413, 415, 429, 503)
_WRITE = (*_COMMON, 401, 403, 404, 409, 410)


ROUTES: tuple[Route, ...] = (
    Route("POST", "/v1/seek", "seek", "seek",
          "Take a seat in the oldest waiting match of the game, or open one.",
          ok=201, reply="Ticket", body="SeekBody", errors=(*_COMMON, 403, 409), part="players"),
    Route("GET", "/v1/matches/{match}", "matchInfo", "match_info", "Summary of a match.",
          reply="MatchInfo", errors=(404, 410, 429), part="matches"),
    Route("GET", "/v1/matches/{match}/events", "events", "events",
          "Events numbered above 'after'; held up to the hold time.",
          reply="Events", query=("after", "wait", "table", "chat"), seat="optional",
          errors=(400, 401, 403, 404, 409, 410, 429, 503), part="matches"),
    Route("POST", "/v1/matches/{match}/moves", "move", "move",
          "Relay a move text (any string); with ?wait=S, also wait for the reply.",
          reply="SeqEvents", body="MoveBody", query=("wait", "table", "chat"), seat="required",
          errors=_WRITE, part="moves"),
    Route("POST", "/v1/matches/{match}/pass", "pass", "pass_turn",
          "Pass the turn back to the partner (no legal move, or a voluntary pass).",
          reply="Seq", body="AfterBody", seat="required", errors=_WRITE, part="moves"),
    Route("POST", "/v1/matches/{match}/confirm", "confirm", "confirm",
          "Agree or dispute that the partner's last move ended the game; the seat to move "
          "may also dispute the partner's last move or pass (agree: false).",
          reply="Seq", body="ConfirmBody", seat="required", errors=_WRITE, part="moves"),
    Route("POST", "/v1/matches/{match}/resign", "resign", "resign",
          "Resign: the match ends at once.",
          reply="Seq", body="AnyBody", seat="required", errors=_WRITE, part="moves"),
    Route("POST", "/v1/matches/{match}/cancel", "cancel", "cancel",
          "Withdraw a seek nobody has joined.", reply="Cancelled", seat="required",
          errors=_WRITE, part="moves"),
    Route("GET", "/v1/matches/{match}/record", "record", "record",
          "The match's record: JSON Lines, a header line, every event of its log, then the "
          "chat lines the reader may read (a seat's key reads its match's chat).",
          seat="optional", errors=(403, 404, 410, 429), content_type="application/jsonl",
          part="matches"),
    Route("GET", "/v1/matches/{match}/rematch", "rematch", "rematch_read",
          "The rematch of a finished match; with 'after', held until its version is above it.",
          reply="Rematch", query=("after", "wait"), seat="optional",
          errors=(400, 401, 403, 404, 410, 429, 503), part="matches"),
    Route("POST", "/v1/matches/{match}/rematch", "offerRematch", "rematch_offer",
          "Offer (or accept) a rematch of a finished match, or decline one (offer: false).",
          reply="Rematch", body="RematchBody", seat="required", errors=_WRITE, part="matches"),
    Route("GET", "/v1/matches/{match}/table", "table", "table_read",
          "The table around the match: names, presence, the last offer, the chat; with "
          "'after', held until its version is above it.",
          reply="Table", query=("after", "wait", "chat"), seat="optional",
          errors=(400, 401, 403, 404, 410, 429, 503), part="table"),
    Route("POST", "/v1/matches/{match}/offer", "offer", "offer",
          "Offer a draw, or ask to take back your last move, at the position after 'after'.",
          reply="Table", body="OfferBody", seat="required", errors=_WRITE, part="table"),
    Route("POST", "/v1/matches/{match}/answer", "answer", "answer",
          "Accept (its event joins the log) or decline the partner's standing offer; "
          "accept: false also withdraws your own.",
          reply="Answered", body="AnswerBody", seat="required", errors=_WRITE, part="table"),
    Route("POST", "/v1/matches/{match}/claim", "claim", "claim",
          "Claim the win from a partner that has stalled on its turn past the claim time "
          "(matches without a clock).",
          reply="Seq", body="AfterBody", seat="required", errors=_WRITE, part="table"),
    Route("POST", "/v1/matches/{match}/chat", "chat", "chat",
          "Say a line of chat to the partner.",
          reply="ChatLine", body="ChatBody", seat="required", errors=_WRITE, part="table"),
    Route("GET", "/v1/player/matches", "playerMatches", "player_matches",
          "Every match the player key (as the bearer) seated that the relay still holds: "
          "its turn first, then the partner's, waiting, finished.",
          reply="PlayerMatches", seat="player", errors=(401, 403, 429, 503), part="players"),
    Route("GET", "/v1/player/ratings", "playerRatings", "player_ratings",
          "The player key's (as the bearer) rating in each game it played rated matches "
          "of, with their histories, newest first; 'game' for one game.",
          reply="PlayerRatings", query=("game",), seat="player",
          errors=(400, 401, 403, 429, 503), part="players"),
    Route("GET", "/v1/player/blocks", "playerBlocks", "blocks",
          "The keys the player key (as the bearer) blocked or muted, newest first.",
          reply="Blocks", seat="player", errors=(401, 403, 429, 503), part="moderation"),
    Route("POST", "/v1/player/blocks", "block", "block",
          "Block (never paired again, chat hidden) or mute (chat hidden) the partner of a "
          "match the player key sat in; or lift one by its public id (kind 'none').",
          reply="Blocks", body="BlockBody", seat="player",
          errors=(*_COMMON, 401, 403, 404, 409), part="moderation"),
    Route("POST", "/v1/player/challenges", "challenge", "challenge",
          "Challenge a player key, by its public id, to a match on these terms: game, time "
          "control, colour, rated or not.",
          ok=201, reply="Challenge", body="ChallengeBody", seat="player",
          errors=(*_COMMON, 401, 403, 404, 409), part="challenges"),
    Route("GET", "/v1/player/challenges", "playerChallenges", "challenges",
          "The challenges made to the player key (as the bearer) and by it; with 'after', "
          "held until their version is above it.",
          reply="Challenges", query=("after", "wait"), seat="player",
          errors=(400, 401, 403, 429, 503), part="challenges"),
    Route("POST", "/v1/player/challenges/answer", "answerChallenge", "challenge_answer",
          "Accept (the match starts, both keys seated) or decline a challenge made to the "
          "player key, or withdraw one it made.",
          reply="Challenge", body="ChallengeAnswerBody", seat="player",
          errors=(*_COMMON, 401, 403, 404, 409), part="challenges"),
    Route("GET", "/v1/player/follows", "playerFollows", "follows",
          "The public ids the player key follows, newest first.",
          reply="Follows", seat="player", errors=(401, 403, 429, 503), part="challenges"),
    Route("POST", "/v1/player/follows", "follow", "follow",
          "Follow a public id (with the name to show for it), or stop following it.",
          reply="Follows", body="FollowBody", seat="player",
          errors=(*_COMMON, 401, 403, 409), part="challenges"),
    Route("GET", "/v1/player/opponents", "playerOpponents", "opponents",
          "The player key's recent opponents that had player keys, from its matches the "
          "relay still holds, newest first.",
          reply="Opponents", seat="player", errors=(401, 403, 429, 503), part="challenges"),
    Route("GET", "/v1/player/passkeys", "playerPasskeys", "passkeys",
          "The passkeys bound to the player key (as the bearer), oldest first, and whether "
          "the relay offers passkeys at all.",
          reply="Passkeys", seat="player", errors=(401, 403, 429, 503), part="passkeys"),
    Route("POST", "/v1/player/passkeys/options", "passkeyOptions", "register_options",
          "WebAuthn options, with a fresh challenge, to bind a new passkey to the player key.",
          reply="PasskeyOptions", seat="player", errors=(*_COMMON, 401, 403, 404, 409),
          part="passkeys"),
    Route("POST", "/v1/player/passkeys", "addPasskey", "register",
          "Bind the authenticator's new passkey (its answer to the options) to the player key.",
          ok=201, reply="Passkeys", body="PasskeyBody", seat="player",
          errors=(*_COMMON, 401, 403, 404, 409), part="passkeys"),
    Route("POST", "/v1/player/passkeys/remove", "removePasskey", "remove",
          "Unbind one of the player key's passkeys, by its id.",
          reply="Passkeys", body="PasskeyIdBody", seat="player",
          errors=(*_COMMON, 401, 403, 404), part="passkeys"),
    Route("POST", "/v1/player/code", "transferCode", "make_code",
          "A short single-use code that signs another device in as the player key, for minutes.",
          ok=201, reply="TransferCode", seat="player", errors=(*_COMMON, 401, 403, 404),
          part="passkeys"),
    Route("POST", "/v1/signin/options", "signinOptions", "signin_options",
          "WebAuthn options, with a fresh challenge, for any passkey of this relay to answer.",
          reply="PasskeyOptions", errors=(*_COMMON, 404), part="passkeys"),
    Route("POST", "/v1/signin/passkey", "signinPasskey", "signin",
          "The player key of the passkey whose answer to a sign-in challenge verifies.",
          reply="SignedIn", body="SigninBody", errors=(*_COMMON, 403, 404, 409),
          part="passkeys"),
    Route("POST", "/v1/signin/code", "signinCode", "redeem",
          "The player key a transfer code was made for, once.",
          reply="SignedIn", body="CodeBody", errors=(*_COMMON, 403, 404), part="passkeys"),
    Route("GET", "/v1/push", "pushKey", "push_key",
          "Whether the relay pushes notices to browsers, and its public VAPID key.",
          reply="PushKey", errors=(429,), part="push"),
    Route("POST", "/v1/player/push", "subscribePush", "subscribe",
          "Push the player key's notices (its turn, a low clock, a match's end) to this "
          "browser: its push subscription, kept and renewed.",
          ok=201, reply="PushSubscribed", body="PushBody", seat="player",
          errors=(*_COMMON, 401, 403, 404), part="push"),
    Route("POST", "/v1/player/push/remove", "unsubscribePush", "unsubscribe",
          "Stop pushing the player key's notices to the browser of this endpoint.",
          reply="PushRemoved", body="PushEndpointBody", seat="player",
          errors=(*_COMMON, 401, 403, 404), part="push"),
    Route("POST", "/v1/matches/{match}/report", "report", "report",
          "Report the partner to the host: its play, its name or its chat.",
          ok=201, reply="Reported", body="ReportBody", seat="required",
          errors=(*_COMMON, 401, 403, 404, 410), part="moderation"),
    Route("GET", "/v1/admin/bans", "adminBans", "bans",
          "The bans in force (the host's admin secret as the bearer).",
          reply="Bans", seat="admin", errors=(401, 403, 404, 429, 503), part="moderation"),
    Route("POST", "/v1/admin/bans", "adminBan", "ban",
          "Ban a player's public id or an address range from new matches for a time.",
          ok=201, reply="Ban", body="BanBody", seat="admin",
          errors=(*_COMMON, 401, 403, 404, 409), part="moderation"),
    Route("POST", "/v1/admin/unban", "adminUnban", "unban",
          "Lift the ban of a public id or an address range.",
          reply="Unbanned", body="TargetBody", seat="admin",
          errors=(*_COMMON, 401, 403, 404), part="moderation"),
    Route("POST", "/v1/admin/void", "adminVoid", "void",
          "Take a rated match's rating back from both seats.",
          reply="Voided", body="VoidBody", seat="admin",
          errors=(*_COMMON, 401, 403, 404), part="moderation"),
    Route("POST", "/v1/admin/erase", "adminErase", "erase",
          "Erase a public id's name and chat lines from every match the relay holds and "
          "from its leaderboard entries.",
          reply="Erased", body="IdBody", seat="admin",
          errors=(*_COMMON, 401, 403, 404), part="moderation"),
    Route("GET", "/v1/admin/reports", "adminReports", "reports",
          "Players' reports, newest first (at most 'limit').",
          reply="Reports", query=("limit",), seat="admin",
          errors=(400, 401, 403, 404, 429, 503), part="moderation"),
    Route("GET", "/v1/games/{game}/leaderboard", "leaderboard", "leaderboard",
          "A game's leaderboard: its established ratings, best first (at most 'limit').",
          reply="Leaderboard", query=("limit",), errors=(400, 429, 503), part="players"),
    Route("GET", "/v1/lobby", "lobby", "lobby",
          "A game's public open seeks, live and recent matches; with 'after', held until "
          "the lobby's version is above it.",
          reply="Lobby", query=("game", "after", "wait"), errors=(400, 429, 503), part="lobby"),
    Route("GET", "/v1/games", "games", "games",
          "The games this relay hosts (its installed game packages): name, title, summary, "
          "page, view, whether the page offers the computer and the game has a referee.",
          reply="Games", errors=(429,), part="lobby"),
    Route("GET", "/healthz", "healthz", "healthz",
          "Liveness: 200 while the relay and its store answer.",
          reply="Health", errors=(503,), limited=False),
    Route("GET", "/metrics", "metrics", "metrics_text", "Prometheus metrics.",
          limited=False, content_type="text/plain; version=0.0.4"),
    Route("GET", "/v1/openapi.json", "openapi", "openapi", "This document.", limited=False),
)  # fmt: skip
"""Every endpoint of the relay but the web pages (relay/http/pages.py)."""


KNOWN = 4096
"""Method and path pairs whose route a Router keeps."""


class Router:
    """Finds the route of a request's method and raw path, as the front reads them."""

    def __init__(self, routes: Sequence[Route] = ROUTES, prefix: str = "") -> None:
        self._static: dict[bytes, dict[bytes, Route]] = {}
        """Path -> method -> route, for the paths without a {match}."""
        self._dynamic: dict[bytes, dict[bytes, dict[bytes, Route]]] = {}
        """What comes before {match} -> what comes after it -> method -> route."""
        for row in routes:
            before, found, after = (prefix + row.path.replace("{game}", "{match}")).partition(
                "{match}"
            )
            if found:
                by_rest = self._dynamic.setdefault(before.encode(), {})
                by_rest.setdefault(after.encode(), {})[row.method.encode()] = row
            else:
                self._static.setdefault(before.encode(), {})[row.method.encode()] = row
        self._segment = re.compile(f"({MATCH_ID})(.*)".encode(), re.S)
        self._known: dict[tuple[bytes, bytes], tuple[Route, str]] = {}
        """Requests found before: a match's paths come again and again."""

    def find(self, method: bytes, path: bytes) -> tuple[Route, str] | None:
        """Returns the route and the {match} of the path (or ''); None for any other request
        (another method, path or spelling of it), which is aiohttp's to answer."""
        key = (method, path)
        known = self._known.get(key)
        if known is not None:
            return known
        found = self._find(method, path)
        if found is not None:
            if len(self._known) >= KNOWN:
                self._known.clear()
            self._known[key] = found
        return found

    def _find(self, method: bytes, path: bytes) -> tuple[Route, str] | None:
        methods = self._static.get(path)
        if methods is not None:
            row = methods.get(method)
            return None if row is None else (row, "")
        for before, by_rest in self._dynamic.items():
            if path.startswith(before):
                found = self._segment.fullmatch(path, len(before))
                if found is None:
                    return None
                methods = by_rest.get(found.group(2))
                row = None if methods is None else methods.get(method)
                return None if row is None else (row, found.group(1).decode())
        return None

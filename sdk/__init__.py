"""The movewire SDK: write a Game, hand it to a RelayHost, and play it over the network."""

from __future__ import annotations

from sdk.blocking import play
from sdk.client import RelayClient
from sdk.clock import Clock, TimeControl, format_left
from sdk.errors import (
    ConnectionLostError,
    HostStateError,
    IllegalMoveError,
    MoveRejected,
    NotYourTurnError,
    ProtocolError,
    RelayRefusedError,
    RelayUnreachableError,
)
from sdk.events import Ended, Event, Moved, Passed, Started, Undone
from sdk.game import Game, GameFactory, GameHost, Played
from sdk.lobby import Lobby, LobbyEntry
from sdk.moderation import Blocked
from sdk.outcome import Outcome, Reason, Result, verdict_words
from sdk.players import PlayerMatch, load_player_key, new_player_key
from sdk.ratings import (
    Leaderboard,
    LeaderboardEntry,
    MatchRatings,
    PlayerRating,
    RatedGame,
    RatingChange,
    RatingRange,
)
from sdk.record import Record
from sdk.relay_host import RelayHost
from sdk.rematch import Rematch
from sdk.signin import SignedIn, TransferCode, keep_player_key
from sdk.state import State
from sdk.table import ChatLine, Offer, Presence, Table
from sdk.ticket import Ticket
from sdk.timing import Timing

__all__ = [
    "Blocked",
    "ChatLine",
    "Clock",
    "ConnectionLostError",
    "Ended",
    "Event",
    "Game",
    "GameFactory",
    "GameHost",
    "HostStateError",
    "IllegalMoveError",
    "Leaderboard",
    "LeaderboardEntry",
    "Lobby",
    "LobbyEntry",
    "MatchRatings",
    "MoveRejected",
    "Moved",
    "NotYourTurnError",
    "Offer",
    "Outcome",
    "Passed",
    "Played",
    "PlayerMatch",
    "PlayerRating",
    "Presence",
    "ProtocolError",
    "RatedGame",
    "RatingChange",
    "RatingRange",
    "Reason",
    "Record",
    "RelayClient",
    "RelayHost",
    "RelayRefusedError",
    "RelayUnreachableError",
    "Rematch",
    "Result",
    "SignedIn",
    "Started",
    "State",
    "Table",
    "Ticket",
    "TimeControl",
    "Timing",
    "TransferCode",
    "Undone",
    "format_left",
    "keep_player_key",
    "load_player_key",
    "new_player_key",
    "play",
    "verdict_words",
]

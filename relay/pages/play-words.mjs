// What a game page says: its status line for each host state, the relay's refusals in plain
// words, and the words of a lost connection (play.mjs shows them).

import { State } from "./movewire.mjs";
import { lostFor } from "./connection.mjs";

/** The status line for each host state (GAME_ENDED shows the result instead). */
export const STATUS = Object.freeze({
  [State.NOT_CONNECTED]: "Not connected.",
  [State.LISTENING]: "Waiting for an opponent...",
  [State.PLAYING_TO_MOVE]: "Your turn.",
  [State.PLAYING_WAIT_MOVE]: "Opponent's turn...",
  [State.WAITING_SERVER_RESPONSE]: "Sending your move...",
  [State.GAME_ENDED]: "Game over.",
});

/** Plainer words for refusals a player can meet, by the relay's error code. */
export const REFUSALS = Object.freeze({
  "room/full": "This private room already has two players. Create another one.",
  "room/version_mismatch": "Your opponent's page is another version of this game.",
  "match/unknown": "This match is over and forgotten by the relay.",
  "limit/waiting": "Too many players are waiting right now; try again in a minute.",
  "room/blocked": "You cannot play in this room: you or the player waiting in it blocked the other.",
});

/** What a page says when the relay restarted and lost the match before it took this side's move. */
export const FORGOTTEN_MOVE = "The relay restarted and lost this match; your last move was not received.";

/** What a page adds when the relay refused this side's last move, taken off the board. */
export const NOT_RECEIVED = "Your last move was not received: it is taken off the board.";

/** Returns how a rated match moved this side's rating: "Your rating: 1500 → 1741 (+241)". */
export const RATING_CHANGE = (/** @type {string} */ change) => `Your rating: ${change}`;

/** What a page says when "Your games" opens a match in a browser without the player key. */
export const NO_PLAYER_KEY =
  "This browser has no player key: add yours under \"Your player key\" in the lobby.";

/** The status line while the computer thinks over its move. */
export const THINKING = "The computer is thinking...";

/** What the page says when the connection is given up, and how to take it up again. */
export const LOST = (/** @type {boolean} */ seated) =>
  `${lostFor()} ${seated ? "Your seat is kept: press Retry to take the match up again." : "Press Retry to try again."}`;

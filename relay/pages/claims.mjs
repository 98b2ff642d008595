// A game-ending move's claim: the mover's own result, sent from its game and checked by the
// partner's (docs/ratings.md, "Which results count"), and the move's body that carries it with
// the game's words. Mirrors sdk/_claims.py and sdk/client.py's _move_body. Pure functions.

import { Result } from "./endings.mjs";
import { cleanReason } from "./errors.mjs";

/** @typedef {"win" | "draw" | "loss"} Claim a mover's word on its own result */

/** The claims a game-ending move may carry. */
export const CLAIMS = Object.freeze(["win", "draw", "loss"]);

/**
 * The reason a host disputes with when its game's result is not the mirror of the claim (both
 * results said as the mover's: the reason reaches both sides and the record).
 * @param {string} claimed @param {string} found
 */
export const WRONG_CLAIM = (claimed, found) =>
  `the claimed result is wrong: the mover claimed ${claimed}, its partner's game finds ${found}`;

/** @type {Readonly<Record<string, Claim>>} */
const CLAIM_OF = Object.freeze({ [Result.WON]: "win", [Result.DRAWN]: "draw", [Result.LOST]: "loss" });
/** @type {Readonly<Record<Claim, string>>} */
const MIRROR = Object.freeze({ win: Result.LOST, draw: Result.DRAWN, loss: Result.WON });
/** @type {Readonly<Record<Claim, string>>} */
const WORDS = Object.freeze({ win: "a win", draw: "a draw", loss: "a loss" });
/** What this side's result is, said as the mover's. @type {Readonly<Record<string, string>>} */
const FOUND = Object.freeze({ [Result.WON]: "a loss", [Result.LOST]: "a win", [Result.DRAWN]: "a draw" });

/**
 * Returns the claim a mover sends for its game's result (null: its game cannot tell).
 * @param {string | null | undefined} result a Result, or null
 * @returns {Claim | null}
 */
export function claimOf(result) {
  return (result !== null && result !== undefined && CLAIM_OF[result]) || null;
}

/**
 * Returns the reason to dispute the partner's claim for ("": none): its mirror is not what this
 * side's game finds. A game that cannot tell (null, Result.UNKNOWN) finds nothing wrong.
 * @param {Claim | null | undefined} claim the partner's claim
 * @param {string | null | undefined} found this side's game's Result, or null
 * @returns {string}
 */
export function checkClaim(claim, found) {
  if (!claim || found === null || found === undefined || !(found in FOUND)) return "";
  if (MIRROR[claim] === found) return "";
  return WRONG_CLAIM(WORDS[claim], FOUND[found]);
}

/**
 * Returns a move's body: the claim and the game's words for the end (cleaned as a dispute's
 * reason: at most 200 characters, control characters made spaces) only with a game-ending move.
 * @param {number} after @param {string} move @param {boolean} end
 * @param {Claim | null} claim @param {string} [detail]
 * @returns {{after: number, move: string, end: boolean, claim?: Claim, detail?: string}}
 */
export function moveBody(after, move, end, claim, detail = "") {
  /** @type {{after: number, move: string, end: boolean, claim?: Claim, detail?: string}} */
  const body = { after, move, end };
  if (!end) return body;
  if (claim) body.claim = claim;
  const said = cleanReason(detail);
  if (said) body.detail = said;
  return body;
}

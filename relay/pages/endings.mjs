// How an `ended` event becomes this side's Outcome, and the dialog the game cannot show
// itself. Mirrors sdk/_endings.py and sdk/outcome.py.

/** What a match meant for this side. */
export const Result = Object.freeze({
  WON: "won",
  LOST: "lost",
  DRAWN: "drawn",
  /** Nobody can say: the game did not tell, the end was disputed, or the match broke off. */
  UNKNOWN: "unknown",
});

/** Why a match ended. The first eight are the relay's `ended` reasons. */
export const Reason = Object.freeze({
  AGREED: "agreed",
  DISPUTED: "disputed",
  UNCONFIRMED: "unconfirmed",
  RESIGNED: "resigned",
  ABANDONED: "abandoned",
  /** The side to move ran out of time on its clock. */
  TIMEOUT: "timeout",
  /** A side offered a draw and the other accepted it. */
  DRAWN: "drawn",
  /** The side to move stalled (a match without a clock) and the other claimed the win. */
  STALLED: "stalled",
  /** The seek was withdrawn (or dropped by the relay) before a partner came. */
  CANCELLED: "cancelled",
  /** The relay could not be reached for the host's whole give-up time. */
  CONNECTION_LOST: "connection_lost",
  /** The relay refused a request that retrying cannot fix, or answered outside the protocol. */
  ERROR: "error",
});

/** The end of one match, as one side sees it; RelayHost.play() resolves with it. */
export class Outcome {
  constructor(result, reason, match, seat, by = null, message = "") {
    /** Won, lost or drawn where the game or the relay says so; otherwise UNKNOWN. */
    this.result = result;
    /** Why the match ended. */
    this.reason = reason;
    /** The relay's match id (null if the seek itself failed). */
    this.match = match;
    /** This side's seat, 0 or 1 (null if the seek itself failed). */
    this.seat = seat;
    /** The seat the reason is about: who resigned, left, agreed, disputed or stayed silent. */
    this.by = by;
    /** The dialog the host showed about the end, if any. */
    this.message = message;
    Object.freeze(this);
  }

  /** Returns whether the reason is about this side (it resigned, left, disputed...). */
  get byMe() {
    return this.by !== null && this.by === this.seat;
  }

  /** Returns whether the match was played to an end on the relay (not cut off or refused). */
  get isFinished() {
    return ![Reason.CANCELLED, Reason.CONNECTION_LOST, Reason.ERROR].includes(this.reason);
  }
}

export const PARTNER_RESIGNED = "Your partner resigned: you win.";
export const PARTNER_ABANDONED = "Your partner left the match: you win.";
export const SELF_ABANDONED =
  "The relay ended the match: this side stopped answering for too long.";
export const PARTNER_TIMEOUT = "Your partner ran out of time: you win.";
export const SELF_TIMEOUT = "You ran out of time: the match is lost.";
export const PARTNER_DISPUTED =
  "Your partner's game does not accept your last move or pass: disputed.";
export const SELF_DISPUTED =
  "Your partner says the game is over, but your game does not agree: disputed.";
export const PARTNER_UNCONFIRMED = "Your partner did not confirm the end of the game in time.";
export const SELF_UNCONFIRMED =
  "The match ended before this side could confirm the end of the game.";
export const LOCAL_DISPUTE =
  "Your game says the game is over, but your partner's move did not end it: disputed.";
export const PASS_DISPUTE =
  "Your game says your partner had a move to make, but your partner passed: disputed.";
export const DRAWN = "The draw was agreed.";
export const PARTNER_STALLED = "Your partner stopped moving and you claimed the win.";
export const SELF_STALLED = "Your partner claimed the win: you took too long to move.";
export const CONNECTION_LOST = (error) => `Lost the connection to the relay for good: ${error}.`;
export const REFUSED = (error) => `The relay refused this side's request: ${error}.`;
export const SEEK_DROPPED = (error) => `The seek ended before a partner came: ${error}.`;

/**
 * Returns [result, reason, dialog] for this side (dialog null: the game knows).
 * @param {{reason: string, seat: number}} ended the `ended` event
 * @param {number} seat this side's seat
 * @param {() => string | null} gameResult the game's own Result, asked only when needed
 */
export function ending(ended, seat, gameResult) {
  const reason = ended.reason;
  const mine = ended.seat === seat;
  if (reason === Reason.RESIGNED) {
    return [mine ? Result.LOST : Result.WON, reason, mine ? null : PARTNER_RESIGNED];
  }
  if (reason === Reason.ABANDONED) {
    return mine ? [Result.LOST, reason, SELF_ABANDONED] : [Result.WON, reason, PARTNER_ABANDONED];
  }
  if (reason === Reason.TIMEOUT) {
    return mine ? [Result.LOST, reason, SELF_TIMEOUT] : [Result.WON, reason, PARTNER_TIMEOUT];
  }
  if (reason === Reason.DRAWN) return [Result.DRAWN, reason, DRAWN];
  if (reason === Reason.STALLED) {
    return mine ? [Result.LOST, reason, SELF_STALLED] : [Result.WON, reason, PARTNER_STALLED];
  }
  if (reason === Reason.DISPUTED) {
    return [Result.UNKNOWN, reason, mine ? SELF_DISPUTED : PARTNER_DISPUTED];
  }
  if (reason === Reason.UNCONFIRMED) {
    if (mine) return [Result.UNKNOWN, reason, SELF_UNCONFIRMED];
    return [gameResult() ?? Result.UNKNOWN, reason, PARTNER_UNCONFIRMED];
  }
  return [gameResult() ?? Result.UNKNOWN, reason, null];
}

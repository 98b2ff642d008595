// How an `ended` event becomes this side's Outcome, and the dialog the game cannot show
// itself. Mirrors sdk/_endings.py and sdk/outcome.py.

/**
 * What a match meant for this side: a value of `Result`.
 * @typedef {"won" | "lost" | "drawn" | "unknown"} ResultValue
 */

/**
 * Why a match ended: a value of `Reason`.
 * @typedef {"agreed" | "disputed" | "unconfirmed" | "resigned" | "abandoned" | "timeout" | "drawn"
 *   | "stalled" | "over" | "illegal" | "cancelled" | "connection_lost" | "error"} ReasonValue
 */

/**
 * What an `ended` event says of the end, as Outcome reads it (the event itself will do).
 * @typedef {{at?: number | null, detail?: string, winner?: number | null, refereed?: boolean}} EndedDetail
 */

/** What a match meant for this side. */
export const Result = Object.freeze({
  WON: "won",
  LOST: "lost",
  DRAWN: "drawn",
  /** Nobody can say: the game did not tell, the end was disputed, or the match broke off. */
  UNKNOWN: "unknown",
});

/** Why a match ended. The first ten are the relay's `ended` reasons. */
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
  /** The game's referee, run by the relay, found the game over (won, lost or drawn). */
  OVER: "over",
  /** The game's referee, run by the relay, found a move illegal: its player lost. */
  ILLEGAL: "illegal",
  /** The seek was withdrawn (or dropped by the relay) before a partner came. */
  CANCELLED: "cancelled",
  /** The relay could not be reached for the host's whole give-up time. */
  CONNECTION_LOST: "connection_lost",
  /** The relay refused a request that retrying cannot fix, or answered outside the protocol. */
  ERROR: "error",
});

/** The end of one match, as one side sees it; RelayHost.play() resolves with it. */
export class Outcome {
  /**
   * @param {ResultValue} result
   * @param {ReasonValue} reason
   * @param {string | null} match
   * @param {number | null} seat
   * @param {number | null} [by]
   * @param {string} [message]
   * @param {EndedDetail | null} [ended]
   */
  constructor(result, reason, match, seat, by = null, message = "", ended = null) {
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
    /**
     * The event the end is about: the disputed or illegal move, or the move a referee found
     * ending the game (null: the relay did not say).
     */
    this.at = ended?.at ?? null;
    /**
     * Why, in words: the disputing game's reason, the referee's, or for an agreed or
     * unconfirmed end the ender's game's words for it ("" for none).
     */
    this.detail = ended?.detail ?? "";
    /** The seat a referee found the winner (null: a draw, or no referee decided). */
    this.winner = ended?.winner ?? null;
    /** Whether the game's referee decided this end (then `result` is its verdict). */
    this.refereed = ended?.refereed ?? false;
    Object.freeze(this);
  }

  /**
   * Returns whether the reason is about this side (it resigned, left, disputed...).
   * @returns {boolean}
   */
  get byMe() {
    return this.by !== null && this.by === this.seat;
  }

  /**
   * Returns whether the match was played to an end on the relay (not cut off or refused).
   * @returns {boolean}
   */
  get isFinished() {
    /** @type {readonly string[]} */
    const cut = [Reason.CANCELLED, Reason.CONNECTION_LOST, Reason.ERROR];
    return !cut.includes(this.reason);
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
export const DRAWN = "The draw was agreed.";
export const PARTNER_STALLED = "Your partner stopped moving and you claimed the win.";
export const SELF_STALLED = "Your partner claimed the win: you took too long to move.";
export const CONNECTION_LOST = (/** @type {unknown} */ error) => `Lost the connection to the relay for good: ${error}.`;
export const REFUSED = (/** @type {unknown} */ error) => `The relay refused this side's request: ${error}.`;
export const SEEK_DROPPED = (/** @type {unknown} */ error) => `The seek ended before a partner came: ${error}.`;

/** The reason a host sends when its game does not agree that a move ended the game. */
export const NOT_OVER = "the game is not over";
/** The reason a host sends when its game finds the game over after a move sent without end. */
export const UNCLAIMED_END = "it ends the game, but did not say so";

/** The start of the reason a host disputes a wrong claim with (claims.mjs, WRONG_CLAIM). */
const WRONG_CLAIM_START = "the claimed result is wrong: ";

/** @type {Readonly<Partial<Record<string, string>>>} */
const VERDICT = Object.freeze({
  [Result.WON]: "You win.",
  [Result.LOST]: "You lose.",
  [Result.DRAWN]: "It is a draw.",
});

/** @type {Readonly<Partial<Record<string, string>>>} */
const VERDICT_WORDS = Object.freeze({
  [Result.WON]: "You win",
  [Result.LOST]: "You lose",
  [Result.DRAWN]: "A draw",
});

/**
 * Returns who won, as this side is told it, with how in the game's own words when given (a
 * referee's detail, or the game's): "You win: three in a row.", "You lose.", "A draw: the board
 * is full." (a `how` that already says "a draw" is not said twice); "" for UNKNOWN. As the
 * SDK's sdk/outcome.py verdict_words.
 * @param {ResultValue} result
 * @param {string} [how]
 * @returns {string}
 */
export function verdictWords(result, how = "") {
  const head = VERDICT_WORDS[result];
  if (head === undefined) return "";
  let words = how.trim().replace(/\.+$/, "");
  if (words.slice(0, head.length).toLowerCase() === head.toLowerCase()) {
    words = words.slice(head.length).replace(/^[ :,;-]+/, "");
  }
  return words ? `${head}: ${words}.` : `${head}.`;
}

/**
 * Returns "move 12", "pass at move 12", or "last move" / "last pass" when unknown.
 * @param {number | null | undefined} number
 * @param {boolean} wasPass
 */
function moveWords(number, wasPass) {
  if (number === null || number === undefined) return wasPass ? "last pass" : "last move";
  return wasPass ? `pass at move ${number}` : `move ${number}`;
}

/**
 * @param {string} text
 * @param {string | null | undefined} detail
 */
function said(text, detail) {
  return detail ? `${text}: ${detail}` : text;
}

/**
 * @param {string} text
 * @param {ResultValue} result
 */
function verdict(text, result) {
  return `${text}. ${VERDICT[result] ?? ""}`.trimEnd();
}

/**
 * Returns the dialog of a side whose game rejected the partner's move or pass (number
 * `number` of the match, null: unknown) for `reason`.
 * @param {number | null} number
 * @param {boolean} wasPass
 * @param {string} reason
 * @returns {string}
 */
export function rejected(number, wasPass, reason) {
  return `${said(`Your game rejected your partner's ${moveWords(number, wasPass)}`, reason)}. Disputed.`;
}

/**
 * Returns the dialog of a side whose game finds the game over after the partner's move, which
 * was not sent as ending it.
 * @param {number | null} number
 * @returns {string}
 */
export function localDispute(number) {
  return (
    `Your game says your partner's ${moveWords(number, false)} ended the game, but your ` +
    "partner did not say so: disputed."
  );
}

/**
 * Returns this side's result by a referee's winner (null: a draw).
 * @param {EndedDetail} ended
 * @param {number} seat
 * @returns {ResultValue}
 */
function refereed(ended, seat) {
  if (!ended.refereed) return Result.UNKNOWN;
  if (ended.winner === null || ended.winner === undefined) return Result.DRAWN;
  return ended.winner === seat ? Result.WON : Result.LOST;
}

/**
 * Returns [result, reason, dialog] for this side (dialog null: the game knows). As the SDK's
 * sdk/_endings.py, word for word.
 * @param {{reason: ReasonValue, seat: number, at?: number | null, detail?: string,
 *   winner?: number | null, refereed?: boolean}} ended the `ended` event
 * @param {number} seat this side's seat
 * @param {() => ResultValue | null} gameResult the game's own Result, asked only when needed
 * @param {{type: string, end?: boolean} | null} about the event `ended.at` names, as this side
 *   handled it (null: unknown)
 * @param {number | null} number its move number in the match (moves and passes in play)
 * @returns {[ResultValue, ReasonValue, string | null]}
 */
export function ending(ended, seat, gameResult, about = null, number = null) {
  const reason = ended.reason;
  const mine = ended.seat === seat;
  const detail = ended.detail ?? "";
  const wasPass = about?.type === "pass";
  const move = moveWords(number, wasPass);
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
  if (reason === Reason.OVER) {
    const result = ended.refereed ? refereed(ended, seat) : (gameResult() ?? Result.UNKNOWN);
    // The game knows who won, but only the referee's words say how: "four in a row".
    if (gameResult() === result) return [result, reason, ended.refereed ? verdictWords(result, detail) : null];
    const at = move.replace("last ", "the last ");
    return [result, reason, verdict(said(`The referee found the game over at ${at}`, detail), result)];
  }
  if (reason === Reason.ILLEGAL) {
    /** @type {ResultValue} */
    let result = mine ? Result.LOST : Result.WON;
    if (ended.refereed) result = refereed(ended, seat);
    const whose = mine ? "your" : "your partner's";
    return [result, reason, verdict(said(`The referee found ${whose} ${move} illegal`, detail), result)];
  }
  if (reason === Reason.DISPUTED) {
    if (ended.refereed) {
      const result = refereed(ended, seat);
      // The detail is the referee's ("the referee found the move legal..."): said already.
      const text = mine
        ? `Your game disputed your partner's ${move}, but the referee found it legal`
        : `Your partner's game disputed your ${move}, but the referee found it legal`;
      return [result, reason, verdict(text, result)];
    }
    if (detail.startsWith(WRONG_CLAIM_START)) {
      const why = detail.slice(WRONG_CLAIM_START.length);
      const text = mine
        ? `Your game does not accept the result your partner claimed with its ${move}`
        : `Your partner's game does not accept the result you claimed with your ${move}`;
      return [Result.UNKNOWN, reason, `${text}: ${why}. Disputed.`];
    }
    if (mine) {
      if (detail === "" || detail === NOT_OVER) return [Result.UNKNOWN, reason, SELF_DISPUTED];
      return [Result.UNKNOWN, reason, rejected(number, wasPass, detail)];
    }
    if (!detail) return [Result.UNKNOWN, reason, PARTNER_DISPUTED];
    return [Result.UNKNOWN, reason, `${said(`Your partner's game rejected your ${move}`, detail)}. Disputed.`];
  }
  if (reason === Reason.UNCONFIRMED) {
    if (mine) return [Result.UNKNOWN, reason, SELF_UNCONFIRMED];
    return [gameResult() ?? Result.UNKNOWN, reason, PARTNER_UNCONFIRMED];
  }
  const result = gameResult() ?? Result.UNKNOWN;
  // The game knows who won; the ender's words say how, the same on both sides.
  if (reason === Reason.AGREED && detail) return [result, reason, verdictWords(result, detail) || null];
  return [result, reason, null];
}

/**
 * Returns the number in the match (the first 1) of the move or pass at event `at`, by the
 * moves and passes in play up to it (less those an undo took back), or null when `at` is no
 * move or pass handled. `events` maps event numbers to the events handled.
 * @param {ReadonlyMap<number, import("./relay-client.mjs").Event>} events
 * @param {number | null | undefined} at
 * @returns {number | null}
 */
export function moveNumber(events, at) {
  const event = at === null || at === undefined ? undefined : events.get(at);
  if (event?.type !== "move" && event?.type !== "pass") return null;
  if (at === null || at === undefined) return null;
  let count = 0;
  for (const [seq, each] of [...events].sort((x, y) => x[0] - y[0])) {
    if (seq > at) break;
    if (each.type === "move" || each.type === "pass") count += 1;
    else if (each.type === "undo") count = Math.max(0, count - each.count);
  }
  return count;
}

/**
 * How a finished match ended, as a record's header, a player's list of matches or the `ended`
 * event gives it: the reason and the seat it is about, a referee's winner and words, and an
 * agreed end's claim (what the game-ending move's mover said it ended in).
 * @typedef {{reason: string, seat: number, winner?: number | null, refereed?: boolean,
 *   detail?: string, claim?: string | null}} EndedResult
 */

/**
 * Returns the seat that won a finished match by its result: null for a draw, undefined when
 * nobody can say (a dispute without a referee, an end nobody confirmed, an agreed end whose
 * mover claimed nothing).
 * @param {EndedResult} result
 * @returns {number | null | undefined}
 */
export function winnerOf(result) {
  const { reason, seat } = result;
  const refereed = result.refereed ?? "winner" in result;
  if (refereed && result.winner !== undefined) return result.winner;
  const other = 1 - seat;
  switch (reason) {
    case Reason.RESIGNED:
    case Reason.ABANDONED:
    case Reason.TIMEOUT:
    case Reason.STALLED:
    case Reason.ILLEGAL:
      return other;
    case Reason.DRAWN:
      return null;
    case Reason.AGREED:
      // `seat` agreed to the game-ending move of the other seat, which claimed its own result.
      if (result.claim === "win") return other;
      if (result.claim === "loss") return seat;
      return result.claim === "draw" ? null : undefined;
    default:
      return undefined;
  }
}

/**
 * Returns what each seat is called in a match's words: its side ("X"), with its name when
 * either player has one ("X (Ann)"; a nameless one by `nameless`'s word). `mine`, a seat of
 * the reader's, is "X (you)".
 * @param {readonly string[]} sides the game's sides, the first mover's first
 * @param {number} first the seat that moved first
 * @param {readonly (string | null)[] | null | undefined} names each seat's name
 * @param {(name: string | null) => string} nameless the word shown for a name (null: none)
 * @param {number | null} [mine]
 * @returns {(seat: number) => string}
 */
export function seatWords(sides, first, names, nameless, mine = null) {
  const named = Array.isArray(names) && names.some((name) => name !== null && name !== "");
  return (seat) => {
    const side = sides[(seat - first + 2) % 2];
    if (seat === mine) return `${side} (you)`;
    return named ? `${side} (${nameless(names?.[seat] ?? null)})` : side;
  };
}

/** What the mover of an unconfirmed game-ending move said, by its claim. */
const CLAIMED_WORDS = new Map([
  ["win", "claimed the win"],
  ["draw", "claimed a draw"],
  ["loss", "conceded the game"],
]);

/**
 * Returns how an agreed end went, in the words the ender's game gave (`how`, a draw's without
 * its "a draw"): "X (Ann) won: three in a row, and 0 (Bob) agreed."
 * @param {string} how @param {string} won @param {number | null | undefined} winner
 * @param {number} seat @param {string} by @param {string} other
 */
function agreedWords(how, won, winner, seat, by, other) {
  if (winner === undefined) return `The game ended: ${how}, and ${by} agreed.`;
  if (winner === null) return `A draw: ${how}, and ${by} agreed.`;
  if (winner === seat) return `${won}: ${other} ended the game with a losing move (${how}), and ${by} agreed.`;
  return `${won}: ${how}, and ${by} agreed.`;
}

/**
 * Returns how a finished match ended, in plain words for anyone (a replay, a list of
 * matches): who won, as `who` names each seat ("X (Ann)"), and how. "X (Ann) won: 0 (Bob)
 * resigned."; "A draw: the players agreed it."; "X (Ann) won by the rules: three in a row." (a
 * referee's verdict, in its words); "No result: 0 (Bob) disputed the last move (column 3 is
 * full)." The one list of these words: the players' own dialogs are above.
 * @param {EndedResult} result
 * @param {(seat: number) => string} who
 * @returns {string}
 */
export function endedWords(result, who) {
  const { reason, seat } = result;
  const by = who(seat);
  const other = who(1 - seat);
  const why = result.detail ? ` (${result.detail})` : "";
  // The game's or the referee's own words ("three in a row"; a draw's: "the board is full").
  const how = (result.detail ?? "").replace(/^a draw\b[\s:,;-]*/i, "").replace(/\.+$/, "");
  const winner = winnerOf(result);
  const won = winner === null || winner === undefined ? "" : `${who(winner)} won`;
  switch (reason) {
    case Reason.RESIGNED:
      return `${won}: ${by} resigned.`;
    case Reason.ABANDONED:
      return `${won}: ${by} left the match.`;
    case Reason.TIMEOUT:
      return `${won}: ${by} ran out of time.`;
    case Reason.STALLED:
      return `${won}: ${by} stopped moving, and the win was claimed.`;
    case Reason.DRAWN:
      return "A draw: the players agreed it.";
    case Reason.AGREED:
      if (how) return agreedWords(how, won, winner, seat, by, other);
      if (winner === undefined) return `The game ended, and ${by} agreed it was over.`;
      if (winner === null) return `A draw: ${by} agreed the game was over.`;
      if (winner === seat) return `${won}: ${other} ended the game with a losing move, and ${by} agreed.`;
      return `${won}: ${by} agreed the game was over.`;
    case Reason.UNCONFIRMED: {
      const claim = result.claim ?? "";
      const claimed = CLAIMED_WORDS.get(claim);
      return claimed === undefined
        ? `No result: ${by} never confirmed the end${why}.`
        : `${other} ${claimed}: ${by} never confirmed the end${why}.`;
    }
    case Reason.DISPUTED:
      if (winner === null || winner === undefined) return `No result: ${by} disputed the last move${why}.`;
      return `${won} by the rules: ${by} disputed the last move, and the referee found it legal.`;
    case Reason.OVER: {
      if (winner === undefined) return `The referee found the game over${why}.`;
      if (winner === null) return how ? `A draw by the rules: ${how}.` : "A draw by the rules: the referee found the game drawn.";
      return how ? `${won} by the rules: ${how}.` : `${won} by the rules: the referee found the game over.`;
    }
    case Reason.ILLEGAL:
      return `${won} by the rules: the referee found a move of ${by} illegal${why}.`;
    default:
      return `Ended: ${reason}.`;
  }
}

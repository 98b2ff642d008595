// The errors the JavaScript host raises, mirroring sdk/errors.py.

/** Raised when a host method is called in a state that does not allow it. */
export class HostStateError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "HostStateError";
  }
}

/** Raised when a game calls host.move() while it does not have the turn; nothing is sent. */
export class NotYourTurnError extends HostStateError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "NotYourTurnError";
  }
}

/** The most characters of a dispute's reason the relay keeps (the host cuts a longer one). */
export const REASON_LIMIT = 200;
/** The reason sent when a game rejects a move without saying why. */
export const NO_REASON = "it breaks the game's rules";
/** The reason sent when a game rejects a pass without saying why. */
export const NO_PASS_REASON = "there was a move to make";

/**
 * Returns a dispute's reason as the relay takes it: control characters made spaces, trimmed,
 * at most REASON_LIMIT characters ("" for none). As the SDK's clean_reason.
 * @param {unknown} text
 * @returns {string}
 */
export function cleanReason(text) {
  if (text === null || text === undefined) return "";
  const line = String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").trim();
  return [...line].slice(0, REASON_LIMIT).join("").trimEnd();
}

/**
 * Thrown by a game's receiveMove() for a move it does not accept (an illegal one), or by its
 * receivePass() for a pass it finds false: the host disputes it, a claimed end or not, and
 * sends `reason` with the dispute. The reason says why in a few words for people ("column 3
 * is full"): the partner is told it, and the relay's log and record keep it; without one the
 * host sends a default text (NO_REASON).
 */
export class MoveRejected extends Error {
  /** @param {string | null} [reason] why, in a few words for people */
  constructor(reason) {
    super(reason ?? "");
    this.name = "MoveRejected";
    /** The reason as the game gave it (null: none). */
    this.given = reason === undefined || reason === null ? null : String(reason);
  }

  /**
   * Returns the reason to send: the one given, cleaned, or NO_REASON when none was.
   * @returns {string}
   */
  get reason() {
    return cleanReason(this.given) || NO_REASON;
  }
}

/** Raised when the relay answers with an error that retrying cannot fix (a 4xx). */
export class RelayRefusedError extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {string} code the relay's error code ("turn/not_yours")
   * @param {string} message the relay's message
   */
  constructor(status, code, message) {
    super(`${status} ${code}: ${message}`);
    this.name = "RelayRefusedError";
    /** The HTTP status. */
    this.status = status;
    /** The relay's error code ("turn/not_yours", "chat/off", ...). */
    this.code = code;
    /** The relay's message. */
    this.detail = message;
  }
}

/** Raised when the relay could not be reached for the whole give-up time. */
export class ConnectionLostError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ConnectionLostError";
  }
}

/** Raised when the relay answers something protocol v1 does not allow. */
export class ProtocolError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ProtocolError";
  }
}

/** Raised inside a host when close() stopped it; play() then resolves with null. */
export class ClosedError extends Error {
  constructor() {
    super("the host was closed");
    this.name = "ClosedError";
  }
}

/**
 * Returns whether a string is well-formed UTF-16 (no lone surrogate): what a move must be, as
 * the relay sends it on as UTF-8.
 * @param {string} text
 * @returns {boolean}
 */
export function isWellFormed(text) {
  const wellFormed = /** @type {{isWellFormed?: () => boolean}} */ (/** @type {unknown} */ (text)).isWellFormed;
  if (typeof wellFormed === "function") return wellFormed.call(text);
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

// The errors the JavaScript host raises, mirroring sdk/errors.py.

/** Raised when a host method is called in a state that does not allow it. */
export class HostStateError extends Error {
  constructor(message) {
    super(message);
    this.name = "HostStateError";
  }
}

/** Raised when a game calls host.move() while it does not have the turn; nothing is sent. */
export class NotYourTurnError extends HostStateError {
  constructor(message) {
    super(message);
    this.name = "NotYourTurnError";
  }
}

/**
 * Thrown by a game's receiveMove() for a move it does not accept (an illegal one), or by its
 * receivePass() for a pass it finds false: the host disputes it, a claimed end or not.
 */
export class MoveRejected extends Error {
  constructor(message) {
    super(message);
    this.name = "MoveRejected";
  }
}

/** Raised when the relay answers with an error that retrying cannot fix (a 4xx). */
export class RelayRefusedError extends Error {
  constructor(status, code, message) {
    super(`${status} ${code}: ${message}`);
    this.name = "RelayRefusedError";
    this.status = status;
    this.code = code;
    this.detail = message;
  }
}

/** Raised when the relay could not be reached for the whole give-up time. */
export class ConnectionLostError extends Error {
  constructor(message) {
    super(message);
    this.name = "ConnectionLostError";
  }
}

/** Raised when the relay answers something protocol v1 does not allow. */
export class ProtocolError extends Error {
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

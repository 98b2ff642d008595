// A match's record, step by step: what the replay page shows, kept apart from the page.

/**
 * Returns a record (JSON Lines) read into {header, events, chat}: the chat lines that follow
 * the events (when the reader may read them) are kept apart from the log.
 */
export function parseRecord(text) {
  const lines = text.split("\n").filter((line) => line !== "");
  if (lines.length === 0) throw new Error("the record is empty");
  const [header, ...rest] = lines.map((line) => JSON.parse(line));
  if (header.record !== 1) throw new Error(`unknown record format ${JSON.stringify(header.record)}`);
  const events = rest.filter((line) => line.type !== "chat");
  const chat = rest.filter((line) => line.type === "chat");
  return { header, events, chat };
}

/**
 * The positions of a game, one per step, from a rules module (Board, parseMove): position 0
 * is the empty board; then one per move (the board after it, with the move that made it) and
 * one per accepted takeback (`undo`: the board as it was before the moves it took back).
 */
export class Replay {
  constructor(rules) {
    this.rules = rules;
    this.positions = [{ board: rules.Board.empty(), last: null, event: null }];
    /** The position after each move and pass in play (not taken back), the start first. */
    this.plies = [{ board: rules.Board.empty(), last: null }];
    this.seen = 0;
  }

  /** Adds the log's events not seen yet (moves and undos make positions; others are kept aside). */
  add(events) {
    for (const event of events) {
      if (event.seq <= this.seen) continue;
      this.seen = event.seq;
      const top = this.plies[this.plies.length - 1];
      if (event.type === "move") {
        const move = this.rules.parseMove(event.move);
        const board = top.board.push(move);
        this.plies.push({ board, last: move });
        this.positions.push({ board, last: move, event });
      } else if (event.type === "pass") {
        this.plies.push(top); // the board stays
      } else if (event.type === "undo") {
        this.plies.length = Math.max(1, this.plies.length - event.count);
        const back = this.plies[this.plies.length - 1];
        this.positions.push({ board: back.board, last: back.last, event });
      }
    }
  }

  /** The number of steps: moves, and takebacks. */
  get moves() {
    return this.positions.length - 1;
  }
}

/** Returns the side (0 moved first) of a seat, given the seat that moved first. */
export function sideOf(seat, first) {
  return (seat - first + 2) % 2;
}

/**
 * Returns the words for how a finished match ended, or null for one still played. The
 * result's `detail` (a dispute's reason, a referee's) and a referee's `winner` are told.
 */
export function resultWords(header, sides) {
  const result = header.result;
  if (result === null || result === undefined) return null;
  const seat = sides[sideOf(result.seat, header.first)];
  const why = result.detail ? ` (${result.detail})` : "";
  const refereed = result.refereed ?? "winner" in result;
  const winner = refereed && result.winner !== null ? sides[sideOf(result.winner, header.first)] : null;
  const words = {
    agreed: `${seat} agreed the game was over.`,
    disputed: refereed
      ? `${seat} disputed the last move; the referee found it legal: ${winner} wins.`
      : `${seat} disputed the last move${why}.`,
    unconfirmed: `${seat} never confirmed the end.`,
    resigned: `${seat} resigned.`,
    abandoned: `${seat} left the match.`,
    timeout: `${seat} ran out of time.`,
    drawn: "The players agreed a draw.",
    stalled: `${seat} stopped moving, and the win was claimed.`,
    over: winner === null
      ? `The referee found the game drawn${why}.`
      : `The referee found the game over${why}: ${winner} wins.`,
    illegal: `The referee found a move of ${seat} illegal${why}: ${winner ?? "the other side"} wins.`,
  };
  return words[result.reason] ?? `Ended: ${result.reason}.`;
}

// A match's record, step by step: what the replay page shows, kept apart from the page.

/** Returns a record (JSON Lines) read into {header, events}. */
export function parseRecord(text) {
  const lines = text.split("\n").filter((line) => line !== "");
  if (lines.length === 0) throw new Error("the record is empty");
  const [header, ...events] = lines.map((line) => JSON.parse(line));
  if (header.record !== 1) throw new Error(`unknown record format ${JSON.stringify(header.record)}`);
  return { header, events };
}

/**
 * The positions of a game, one per move, from a rules module (Board, parseMove): position 0
 * is the empty board; position n the board after n moves, with the move that made it.
 */
export class Replay {
  constructor(rules) {
    this.rules = rules;
    this.positions = [{ board: rules.Board.empty(), last: null, event: null }];
    this.seen = 0;
  }

  /** Adds the log's events not seen yet (moves make positions; others are kept aside). */
  add(events) {
    for (const event of events) {
      if (event.seq <= this.seen) continue;
      this.seen = event.seq;
      if (event.type !== "move") continue;
      const move = this.rules.parseMove(event.move);
      const board = this.positions[this.positions.length - 1].board.push(move);
      this.positions.push({ board, last: move, event });
    }
  }

  /** The number of moves. */
  get moves() {
    return this.positions.length - 1;
  }
}

/** Returns the side (0 moved first) of a seat, given the seat that moved first. */
export function sideOf(seat, first) {
  return (seat - first + 2) % 2;
}

/** Returns the words for how a finished match ended, or null for one still played. */
export function resultWords(header, sides) {
  const result = header.result;
  if (result === null || result === undefined) return null;
  const seat = sides[sideOf(result.seat, header.first)];
  const words = {
    agreed: `${seat} agreed the game was over.`,
    disputed: `${seat} disputed the last move.`,
    unconfirmed: `${seat} never confirmed the end.`,
    resigned: `${seat} resigned.`,
    abandoned: `${seat} left the match.`,
    timeout: `${seat} ran out of time.`,
  };
  return words[result.reason] ?? `Ended: ${result.reason}.`;
}

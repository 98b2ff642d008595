// A match's record, step by step: what the replay page shows, kept apart from the page.

import { endedWords, seatWords } from "./endings.mjs";

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
 * Returns a finished match's result with the claim of its game-ending move, when an agreed or
 * unconfirmed end's record gives none: the move's own, else the rules' verdict on the final
 * position (a game-ending move sent without a claim), said as its mover's.
 * @param {any} result the record's result
 * @param {Replay} replay the match's positions, its log added
 * @param {number} first the seat that moved first
 */
export function withClaim(result, replay, first) {
  if (result.claim || (result.reason !== "agreed" && result.reason !== "unconfirmed")) return result;
  const last = replay.positions[replay.positions.length - 1];
  const event = last.event;
  if (event === null || event.type !== "move" || !event.end) return result;
  if (event.claim) return { ...result, claim: event.claim };
  const outcome = replay.plies[replay.plies.length - 1].board.outcome();
  if (outcome === null) return result;
  const mover = sideOf(event.seat, first);
  const claim = outcome.winner === null ? "draw" : outcome.winner === mover ? "win" : "loss";
  return { ...result, claim };
}

/**
 * Returns the words for how a finished match ended (endings.mjs endedWords: who won, by side
 * and name, and how), or null for one still played.
 * @param {any} header the record's header (its result, first mover and names)
 * @param {string[]} sides the game's sides
 * @param {(name: string | null) => string} nameless the word shown for a name (null: none)
 * @param {Replay | null} [replay] the match's positions, to find an agreed end's winner
 */
export function resultWords(header, sides, nameless, replay = null) {
  const result = header.result;
  if (result === null || result === undefined) return null;
  const full = replay === null ? result : withClaim(result, replay, header.first);
  return endedWords(full, seatWords(sides, header.first, header.names, nameless));
}

// The computer's X and 0: a port of examples/xand0/bot.py. Pure, no DOM: node, a page and a
// Web Worker run it as it is. "strong" plays perfectly (memoised negamax); "medium" takes a
// win in one or blocks one, else plays at random; "easy" plays at random.

import { SIZE } from "./xand0.mjs";

/** The rules this engine plays by, for the computer's worker (computer-engines.mjs). */
export * as rules from "./xand0.mjs";

/** The levels, weakest first. */
export const LEVELS = Object.freeze(["easy", "medium", "strong"]);

const CELLS = SIZE * SIZE;
const FULL = (1 << CELLS) - 1;
const LINE_MASKS = [
  ...[0, 1, 2].map((r) => [0, 1, 2].map((c) => r * SIZE + c)),
  ...[0, 1, 2].map((c) => [0, 1, 2].map((r) => r * SIZE + c)),
  [0, 4, 8],
  [2, 4, 6],
].map((cells) => cells.reduce((mask, cell) => mask | (1 << cell), 0));
const memo = new Map();

function hasLine(bits) {
  return LINE_MASKS.some((mask) => (bits & mask) === mask);
}

function popcount(n) {
  let count = 0;
  for (; n; n &= n - 1) count++;
  return count;
}

/**
 * Returns the value for the side to move: (empty cells + 1) on a win, its negation on a loss,
 * so that quick wins and slow losses are preferred.
 */
function negamax(mine, theirs) {
  const key = mine * 512 + theirs;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let empty = FULL & ~(mine | theirs);
  let best = empty ? -CELLS - 1 : 0;
  while (empty) {
    const bit = empty & -empty;
    empty ^= bit;
    const placed = mine | bit;
    if (hasLine(placed)) {
      best = popcount(FULL & ~(placed | theirs)) + 1;
      break;
    }
    best = Math.max(best, -negamax(theirs, placed));
  }
  memo.set(key, best);
  return best;
}

function split(board) {
  const marks = [0, 0];
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      const player = board.pieceAt(col, row);
      if (player !== null) marks[player] |= 1 << (row * SIZE + col);
    }
  }
  return [marks[board.turn], marks[1 - board.turn]];
}

const cellBit = ({ col, row }) => 1 << (row * SIZE + col);

/** Returns each legal move's perfect-play value as [move, value]: >0 wins (bigger is faster), 0 draws. */
export function moveScores(board) {
  const [mine, theirs] = split(board);
  return board.legalMoves().map((move) => {
    const placed = mine | cellBit(move);
    const value = hasLine(placed) ? popcount(FULL & ~(placed | theirs)) + 1 : -negamax(theirs, placed);
    return [move, value];
  });
}

function pick(moves, random) {
  return moves[Math.floor(random() * moves.length)];
}

/**
 * Returns the computer's move ({col, row}) at a level in a position of xand0.mjs's Board.
 * `random()` returns a number in [0, 1) and picks among equally good moves.
 */
export function chooseMove(board, level, { random = Math.random } = {}) {
  if (!LEVELS.includes(level)) throw new RangeError(`level ${JSON.stringify(level)} is not one of ${LEVELS}`);
  const moves = board.legalMoves();
  if (moves.length === 0) throw new Error("no legal moves");
  if (level === "easy") return pick(moves, random);
  if (level === "medium") {
    const [mine, theirs] = split(board);
    const win = moves.find((move) => hasLine(mine | cellBit(move)));
    if (win !== undefined) return win;
    // The opponent's winning cells are the ones to block.
    const block = moves.find((move) => hasLine(theirs | cellBit(move)));
    return block ?? pick(moves, random);
  }
  const scores = moveScores(board);
  const top = Math.max(...scores.map(([, value]) => value));
  return pick(
    scores.filter(([, value]) => value === top).map(([move]) => move),
    random,
  );
}

/**
 * Returns how a position of xand0.mjs's Board stands for the side to move under perfect play,
 * as the computer judges a draw offer: above 0 it wins, 0 a draw, below 0 it loses.
 */
export function positionValue(board) {
  const scores = moveScores(board);
  return scores.length === 0 ? 0 : Math.max(...scores.map(([, value]) => value));
}

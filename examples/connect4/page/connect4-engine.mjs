// The computer's Connect Four: a port of examples/connect4/bot.py. Pure, no DOM: node, a page
// and a Web Worker run it as it is.
//
// Positions are searched as two BigInt bitboards, as in Pascal Pons' solver: `pos` holds the
// pieces of the side to move and `mask` all pieces (bit col * 7 + row; the top bit of each
// column is an always-empty sentinel). Every node first takes a win in one, then narrows the
// moves to the ones that do not hand the opponent a win in one; nodes left with one such move
// are searched without using up depth. Midgame positions get iterative deepening within a
// time budget over a heuristic evaluation of threats weighted by row parity (zugzwang),
// stacked threats, open lines and centre pieces; from EXACT_EMPTY_CELLS empty cells on, the
// strongest level solves the position exactly instead.

import { HEIGHT, WIDTH } from "./connect4.mjs";

/** The rules this engine plays by, for the computer's worker (computer-engines.mjs). */
export * as rules from "./connect4.mjs";

/** The levels, weakest first: "easy" (depth 2), "medium" (depth 4), "strong" (the full engine). */
export const LEVELS = Object.freeze(["easy", "medium", "strong"]);

/** The fixed search depth of each level below the strongest. */
export const LEVEL_DEPTHS = Object.freeze({ easy: 2, medium: 4 });

/** Seconds of search per move at the strongest level, at most (as the Python bot's). */
export const DEFAULT_BUDGET = 2.0;

/** At most this many empty cells, the strongest level solves the position exactly. */
export const EXACT_EMPTY_CELLS = 16;

/** At most this many empty cells, the strongest level first tries to solve within its budget. */
export const SOLVE_EMPTY_CELLS = 30;

/** The share of the time budget spent trying to solve before the heuristic search. */
export const SOLVE_SHARE = 0.6;

/** Heuristic-search value of a win on the spot; a win on ply n is worth WIN_SCORE - n. */
export const WIN_SCORE = 100000;

const STRIDE = HEIGHT + 1;
const CELLS = WIDTH * HEIGHT;
const INF = 10 * WIN_SCORE;
const EXACT = 0;
const LOWER = 1;
const UPPER = 2;

const bit = (col, row) => 1n << BigInt(col * STRIDE + row);
const sum = (values) => values.reduce((a, b) => a | b, 0n);
const range = (n) => [...Array(n).keys()];

const BOTTOM_MASK = sum(range(WIDTH).map((c) => bit(c, 0)));
const BOARD_MASK = BOTTOM_MASK * ((1n << BigInt(HEIGHT)) - 1n);
const COLUMN_MASKS = range(WIDTH).map((c) => ((1n << BigInt(HEIGHT)) - 1n) << BigInt(c * STRIDE));
const CENTRE_ORDER = [3, 2, 4, 1, 5, 0, 6];
const CENTRE_COLUMN_MASKS = CENTRE_ORDER.map((c) => COLUMN_MASKS[c]);
// Rows 0, 2, 4 (the odd rows counting from 1) favour the first player, the others the second.
const GOOD_ROWS = [0, 1].map((parity) =>
  sum(range(WIDTH).flatMap((c) => range(HEIGHT).filter((r) => r % 2 === parity).map((r) => bit(c, r)))),
);
const CENTRE = COLUMN_MASKS[3];
const NEAR_CENTRE = COLUMN_MASKS[2] | COLUMN_MASKS[4];
const W_THREAT = 40;
const W_PARITY = 40;
const W_STACKED = 200;
const W_CENTRE = 6;
const W_ZUGZWANG = 150;
const W_FILL = 40;

const LOW32 = 0xffffffffn;

/** Returns the number of set bits of a board (under 64 bits). */
export function popcount(bits) {
  return count32(Number(bits & LOW32)) + count32(Number(bits >> 32n));
}

function count32(n) {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function lowestBit(bits) {
  return bits & -bits;
}

function isSingle(bits) {
  return (bits & (bits - 1n)) === 0n;
}

/** Returns the column of a one-bit move. */
function columnOf(move) {
  return Math.floor((move.toString(2).length - 1) / STRIDE);
}

/** Returns the empty cells (playable now or not) that would complete a four for `b`. */
export function winningCells(b, mask) {
  const l7 = b << 7n;
  const r7 = b >> 7n;
  const l6 = b << 6n;
  const r6 = b >> 6n;
  const l8 = b << 8n;
  const r8 = b >> 8n;
  const h1 = l7 & (b << 14n);
  const h2 = r7 & (b >> 14n);
  const d1 = l6 & (b << 12n);
  const d2 = r6 & (b >> 12n);
  const e1 = l8 & (b << 16n);
  const e2 = r8 & (b >> 16n);
  const cells =
    ((b << 1n) & (b << 2n) & (b << 3n)) |
    (h1 & ((b << 21n) | r7)) |
    (h2 & (l7 | (b >> 21n))) |
    (d1 & ((b << 18n) | r6)) |
    (d2 & (l6 | (b >> 18n))) |
    (e1 & ((b << 24n) | r8)) |
    (e2 & (l8 | (b >> 24n)));
  return cells & (BOARD_MASK ^ mask);
}

/** Returns whether a player's bitboard holds four in a row in any direction. */
export function hasFour(bits) {
  for (const step of [1n, 7n, 6n, 8n]) {
    const pairs = bits & (bits >> step);
    if (pairs & (pairs >> (2n * step))) return true;
  }
  return false;
}

/** Returns (pieces of the side to move, all pieces, number of pieces) of a rules Board. */
export function split(board) {
  const bits = [0n, 0n];
  for (let col = 0; col < WIDTH; col++) {
    for (let row = 0; row < board.height(col); row++) bits[board.pieceAt(col, row)] |= bit(col, row);
  }
  return { pos: bits[board.turn], mask: bits[0] | bits[1], moves: board.ply };
}

/** Returns the columns the side to move may play in a bitboard position (none once it is over). */
export function legalColumns(pos, mask) {
  if (hasFour(pos) || hasFour(pos ^ mask) || mask === BOARD_MASK) return [];
  return range(WIDTH).filter((c) => !(mask & bit(c, HEIGHT - 1)));
}

class Timeout extends Error {}

function above(bits) {
  // One row at a time, so that the empty sentinel row stops each column's smear.
  let up = (bits << 1n) & BOARD_MASK;
  for (let i = 0; i < 4; i++) up |= (up << 1n) & BOARD_MASK;
  return up;
}

function fours(bits) {
  let total = 0;
  for (const step of [1n, 7n, 6n, 8n]) {
    const pairs = bits & (bits >> step);
    total += popcount(pairs & (pairs >> (2n * step)));
  }
  return total;
}

/** Returns the heuristic value of a quiet position for the side to move (see bot.py). */
function evaluateBits(pos, mask, moves, mine, theirs) {
  const opp = pos ^ mask;
  const me = moves & 1;
  const mineRows = GOOD_ROWS[me];
  const theirsRows = GOOD_ROWS[1 - me];
  // A threat right above one of the opponent's is worthless: the opponent's comes first.
  const myLive = mine & ~(theirs << 1n);
  const theirLive = theirs & ~(mine << 1n);
  let value = W_THREAT * (popcount(myLive) - popcount(theirLive));
  value += W_PARITY * (popcount(myLive & mineRows) - popcount(theirLive & theirsRows));
  value += W_STACKED * (popcount(mine & (mine >> 1n)) - popcount(theirs & (theirs >> 1n)));
  value += W_CENTRE * (popcount(pos & CENTRE) - popcount(opp & CENTRE));
  value += (W_CENTRE / 2) * (popcount(pos & NEAR_CENTRE) - popcount(opp & NEAR_CENTRE));
  // Allis' rules, roughly: the first player wins with a threat on its parity that no threat
  // of the second player's undercuts in the same column; failing that, so does the second.
  const [firsts, seconds] = me === 0 ? [mine, theirs] : [theirs, mine];
  if (firsts & GOOD_ROWS[0] & ~above(seconds)) value += me === 0 ? W_ZUGZWANG : -W_ZUGZWANG;
  else if (seconds & GOOD_ROWS[1] & ~above(firsts)) value += me === 1 ? W_ZUGZWANG : -W_ZUGZWANG;
  const empty = BOARD_MASK ^ mask;
  value += W_FILL * (fours(pos | (empty & mineRows)) - fours(opp | (empty & theirsRows)));
  return value;
}

/** Returns [moves not giving the opponent a win in one, the opponent's winning cells]. */
function nonLosing(pos, mask) {
  let possible = (mask + BOTTOM_MASK) & BOARD_MASK;
  const theirs = winningCells(pos ^ mask, mask);
  const forced = possible & theirs;
  if (forced) {
    if (!isSingle(forced)) return [0n, theirs];
    possible = forced;
  }
  return [possible & ~(theirs >> 1n), theirs];
}

/** Returns [rank, move bit, winning cells after it] per candidate, most threats then centre first. */
function ordered(pos, mask, candidates) {
  if (!candidates) return [];
  if (isSingle(candidates)) return [[0, candidates, winningCells(pos | candidates, mask | candidates)]];
  const scored = [];
  for (let rank = 0; rank < CENTRE_COLUMN_MASKS.length; rank++) {
    const move = candidates & CENTRE_COLUMN_MASKS[rank];
    if (move) {
      const cells = winningCells(pos | move, mask | move);
      scored.push([popcount(cells) * 8 - rank, move, cells]);
    }
  }
  // Python sorts the tuples in reverse; ranks are distinct, so the score alone orders them.
  scored.sort((a, b) => b[0] - a[0]);
  return scored;
}

/** Exact negamax with alpha-beta and a transposition table of bounds (Pons' scores). */
class Solver {
  constructor(deadline = Infinity) {
    this.upper = new Map();
    this.lower = new Map();
    this.refutations = new Map();
    this.nodes = 0;
    this.deadline = deadline;
  }

  negamax(pos, mask, moves, alpha, beta, theirs) {
    this.nodes++;
    if (!(this.nodes & 1023) && performance.now() > this.deadline) throw new Timeout();
    let possible = (mask + BOTTOM_MASK) & BOARD_MASK;
    const forced = possible & theirs;
    if (forced) {
      if (!isSingle(forced)) return -Math.floor((CELLS - moves) / 2);
      possible = forced;
    }
    // Never play right under an opponent's winning cell.
    let candidates = possible & ~(theirs >> 1n);
    if (!candidates) return -Math.floor((CELLS - moves) / 2);
    if (moves >= CELLS - 2) return 0;
    const low = -Math.floor((CELLS - 2 - moves) / 2);
    if (alpha < low) {
      alpha = low;
      if (alpha >= beta) return alpha;
    }
    let high = Math.floor((CELLS - 1 - moves) / 2);
    const key = pos + mask;
    let bound = this.upper.get(key);
    if (bound !== undefined && bound < high) high = bound;
    if (beta > high) {
      beta = high;
      if (alpha >= beta) return beta;
    }
    bound = this.lower.get(key);
    if (bound !== undefined && bound > alpha) {
      alpha = bound;
      if (alpha >= beta) return alpha;
    }
    const opp = pos ^ mask;
    // The move that last refuted this position usually refutes it again.
    const first = (this.refutations.get(key) ?? 0n) & candidates;
    if (first) {
      const cells = winningCells(pos | first, mask | first);
      const score = -this.negamax(opp, mask | first, moves + 1, -beta, -alpha, cells);
      if (score >= beta) {
        this.lower.set(key, score);
        return score;
      }
      alpha = Math.max(alpha, score);
      candidates ^= first;
    }
    for (const [, move, cells] of ordered(pos, mask, candidates)) {
      const score = -this.negamax(opp, mask | move, moves + 1, -beta, -alpha, cells);
      if (score >= beta) {
        this.lower.set(key, score);
        this.refutations.set(key, move);
        return score;
      }
      alpha = Math.max(alpha, score);
    }
    this.upper.set(key, alpha);
    return alpha;
  }

  solve(pos, mask, moves) {
    if (winningCells(pos, mask) & (mask + BOTTOM_MASK) & BOARD_MASK) {
      return Math.floor((CELLS + 1 - moves) / 2);
    }
    const theirs = winningCells(pos ^ mask, mask);
    let low = -Math.floor((CELLS - moves) / 2);
    let high = Math.floor((CELLS + 1 - moves) / 2);
    while (low < high) {
      let mid = low + Math.floor((high - low) / 2);
      // Probe near zero first: most positions are decided or drawn, not close.
      if (mid <= 0 && Math.trunc(low / 2) < mid) mid = Math.trunc(low / 2);
      else if (mid >= 0 && Math.floor(high / 2) > mid) mid = Math.floor(high / 2);
      const score = this.negamax(pos, mask, moves, mid, mid + 1, theirs);
      if (score <= mid) high = score;
      else low = score;
    }
    return low;
  }
}

/** Heuristic alpha-beta (PVS) with a transposition table and a deadline. */
class Engine {
  constructor(deadline = Infinity) {
    this.table = new Map();
    this.iterationBest = [-INF, 0n];
    this.nodes = 0;
    this.deadline = deadline;
  }

  search(pos, mask, moves, depth, alpha, beta, mine, theirs) {
    this.nodes++;
    if (!(this.nodes & 1023) && performance.now() > this.deadline) throw new Timeout();
    let possible = (mask + BOTTOM_MASK) & BOARD_MASK;
    if (mine & possible) return WIN_SCORE - moves - 1;
    const forced = possible & theirs;
    if (forced) {
      if (!isSingle(forced)) return moves + 2 - WIN_SCORE;
      possible = forced;
    }
    let candidates = possible & ~(theirs >> 1n);
    if (!candidates) return moves + 2 - WIN_SCORE;
    if (moves >= CELLS - 2) return 0;
    const single = isSingle(candidates);
    if (depth <= 0 && !single) return evaluateBits(pos, mask, moves, mine, theirs);
    const key = pos + mask;
    const entry = this.table.get(key);
    let first = 0n;
    if (entry !== undefined) {
      const [storedDepth, flag, value, stored] = entry;
      if (
        storedDepth >= depth &&
        (flag === EXACT || (flag === LOWER && value >= beta) || (flag === UPPER && value <= alpha))
      ) {
        return value;
      }
      first = stored & candidates;
    }
    // A forced reply costs no depth: it keeps tactical lines from ending at the horizon.
    const childDepth = single ? depth : depth - 1;
    const opp = pos ^ mask;
    let best = -INF;
    let bestMove = 0n;
    const originalAlpha = alpha;
    if (first) {
      const cells = winningCells(pos | first, mask | first);
      best = -this.search(opp, mask | first, moves + 1, childDepth, -beta, -alpha, theirs & ~first, cells);
      bestMove = first;
      alpha = Math.max(alpha, best);
      candidates ^= first;
    }
    if (alpha < beta) {
      for (const [, move, cells] of ordered(pos, mask, candidates)) {
        const childMine = theirs & ~move;
        const child = mask | move;
        let value;
        if (!bestMove) {
          value = -this.search(opp, child, moves + 1, childDepth, -beta, -alpha, childMine, cells);
        } else {
          // Principal variation search: prove the move no better with a null window.
          value = -this.search(opp, child, moves + 1, childDepth, -alpha - 1, -alpha, childMine, cells);
          if (alpha < value && value < beta) {
            value = -this.search(opp, child, moves + 1, childDepth, -beta, -value, childMine, cells);
          }
        }
        if (value > best) {
          best = value;
          bestMove = move;
          if (value > alpha) {
            alpha = value;
            if (alpha >= beta) break;
          }
        }
      }
    }
    const flag = best >= beta ? LOWER : best <= originalAlpha ? UPPER : EXACT;
    this.table.set(key, [depth, flag, best, bestMove]);
    return best;
  }

  root(pos, mask, moves, maxDepth, candidates) {
    let order = ordered(pos, mask, candidates);
    let bestValue = -INF;
    let bestMove = order[0][1];
    for (let depth = 1; depth <= maxDepth; depth++) {
      this.iterationBest = [-INF, 0n];
      let value;
      let move;
      try {
        [value, move] = this.#iteration(pos, mask, moves, depth, order);
      } catch (error) {
        if (!(error instanceof Timeout)) throw error;
        // The unfinished iteration searched the previous best first, so any move it settled
        // on is at least as good, and seen deeper.
        [value, move] = this.iterationBest;
        if (move) [bestValue, bestMove] = [value, move];
        break;
      }
      [bestValue, bestMove] = [value, move];
      order = [...order.filter((e) => e[1] === move), ...order.filter((e) => e[1] !== move)];
      if (Math.abs(value) > WIN_SCORE - CELLS - 1) break; // proven: deeper search cannot change it
    }
    return [bestValue, bestMove];
  }

  #iteration(pos, mask, moves, depth, order) {
    const opp = pos ^ mask;
    const theirs = winningCells(opp, mask);
    let alpha = -INF;
    let bestMove = order[0][1];
    order.forEach(([, move, cells], index) => {
      const child = mask | move;
      const childMine = theirs & ~move;
      let value;
      if (index === 0) {
        value = -this.search(opp, child, moves + 1, depth - 1, -INF, INF, childMine, cells);
      } else {
        value = -this.search(opp, child, moves + 1, depth - 1, -alpha - 1, -alpha, childMine, cells);
        if (value > alpha) {
          value = -this.search(opp, child, moves + 1, depth - 1, -INF, -alpha, childMine, cells);
        }
      }
      if (value > alpha) {
        alpha = value;
        bestMove = move;
        this.iterationBest = [alpha, move];
      }
    });
    return [alpha, bestMove];
  }
}

/** Returns the bit of a win in one, else of a forced block, else of the only sane move, else 0n. */
function tacticalMove(pos, mask) {
  const possible = (mask + BOTTOM_MASK) & BOARD_MASK;
  const wins = winningCells(pos, mask) & possible;
  if (wins) return lowestBit(wins);
  const [candidates, theirs] = nonLosing(pos, mask);
  const forced = possible & theirs;
  if (forced) return lowestBit(forced);
  if (!candidates) return lowestBit(possible);
  return isSingle(candidates) ? candidates : 0n;
}

function exactMove(pos, mask, moves, candidates, deadline) {
  const solver = new Solver();
  const opp = pos ^ mask;
  const scored = ordered(pos, mask, candidates).map(([, move]) => [
    -solver.solve(opp, mask | move, moves + 1),
    move,
  ]);
  const top = Math.max(...scored.map(([score]) => score));
  const best = scored.filter(([score]) => score === top).map(([, move]) => move);
  if (top > 0 || best.length === 1) return best[0];
  // Every drawing (or slowest losing) move is as good as the next against perfect play; the
  // heuristic picks the one that leaves a fallible opponent the most ways to go wrong.
  return new Engine(deadline).root(pos, mask, moves, CELLS - moves, sum(best))[1];
}

function classify(solver, pos, mask, moves, order, verdicts) {
  const opp = pos ^ mask;
  for (const [, move, cells] of order) {
    // Null windows: the child scoring <= -1 means the move wins, <= 0 that it draws.
    if (solver.negamax(opp, mask | move, moves + 1, -1, 0, cells) <= -1) {
      verdicts.set(move, 1);
      return;
    }
  }
  for (const [, move, cells] of order) {
    const draws = solver.negamax(opp, mask | move, moves + 1, 0, 1, cells) <= 0;
    verdicts.set(move, draws ? 0 : -1);
  }
}

/** Returns the exact score of a bitboard position (Pons' convention: >0 the side to move wins). */
export function solveBits(pos, mask, moves) {
  if (hasFour(pos ^ mask)) return -Math.floor((CELLS + 2 - moves) / 2);
  if (mask === BOARD_MASK) return 0;
  return new Solver().solve(pos, mask, moves);
}

/** Returns the strongest level's column: exact when few cells are empty, else timed search. */
export function bestColumn(pos, mask, moves, budget = DEFAULT_BUDGET) {
  if (legalColumns(pos, mask).length === 0) throw new Error("no legal moves");
  const started = performance.now();
  const deadline = started + budget * 1000;
  const tactical = tacticalMove(pos, mask);
  if (tactical) return columnOf(tactical);
  let [candidates] = nonLosing(pos, mask);
  const empty = CELLS - moves;
  if (empty <= EXACT_EMPTY_CELLS) return columnOf(exactMove(pos, mask, moves, candidates, deadline));
  if (empty <= SOLVE_EMPTY_CELLS) {
    const verdicts = new Map();
    const solver = new Solver(started + budget * 1000 * SOLVE_SHARE);
    try {
      classify(solver, pos, mask, moves, ordered(pos, mask, candidates), verdicts);
    } catch (error) {
      if (!(error instanceof Timeout)) throw error;
    }
    const wins = [...verdicts].filter(([, v]) => v === 1).map(([m]) => m);
    if (wins.length) return columnOf(wins[0]);
    const draws = sum([...verdicts].filter(([, v]) => v === 0).map(([m]) => m));
    const losses = sum([...verdicts].filter(([, v]) => v === -1).map(([m]) => m));
    if (draws && verdicts.size === popcount(candidates)) candidates = draws;
    else if (candidates & ~losses) candidates &= ~losses;
  }
  return columnOf(new Engine(deadline).root(pos, mask, moves, empty, candidates)[1]);
}

/**
 * Returns [column, value] for each move that does not hand the opponent a win in one, each
 * searched in full to a fixed depth (the levels below the strongest pick among the best).
 */
export function fixedDepthValues(pos, mask, moves, depth) {
  const [candidates] = nonLosing(pos, mask);
  const engine = new Engine();
  const opp = pos ^ mask;
  const theirs = winningCells(opp, mask);
  return ordered(pos, mask, candidates).map(([, move, cells]) => [
    columnOf(move),
    -engine.search(opp, mask | move, moves + 1, depth - 1, -INF, INF, theirs & ~move, cells),
  ]);
}

function fixedDepthColumn(pos, mask, moves, depth, random) {
  const values = fixedDepthValues(pos, mask, moves, depth);
  const top = Math.max(...values.map(([, v]) => v));
  const best = values.filter(([, v]) => v === top).map(([column]) => column);
  return best[Math.floor(random() * best.length)];
}

/**
 * Returns the computer's column at a level ("easy", "medium", "strong") in a bitboard position.
 * `random()` returns a number in [0, 1) and picks among equally good moves.
 */
export function chooseColumn(pos, mask, moves, level, options = {}) {
  const { random = Math.random, budget = DEFAULT_BUDGET } = options;
  if (!LEVELS.includes(level)) throw new RangeError(`level ${JSON.stringify(level)} is not one of ${LEVELS}`);
  if (legalColumns(pos, mask).length === 0) throw new Error("no legal moves");
  if (level === "strong") return bestColumn(pos, mask, moves, budget);
  const tactical = tacticalMove(pos, mask);
  if (tactical) return columnOf(tactical);
  return fixedDepthColumn(pos, mask, moves, LEVEL_DEPTHS[level], random);
}

/** Returns the computer's move at a level in a position of connect4.mjs's Board. */
export function chooseMove(board, level, options = {}) {
  const { pos, mask, moves } = split(board);
  return chooseColumn(pos, mask, moves, level, options);
}

/** Returns the exact score of a connect4.mjs Board: >0 the side to move wins, 0 draw, <0 it loses. */
export function solve(board) {
  const { pos, mask, moves } = split(board);
  return solveBits(pos, mask, moves);
}

/** Returns the heuristic value of a connect4.mjs Board for the side to move (as bot.evaluate). */
export function evaluate(board) {
  const { pos, mask, moves } = split(board);
  return evaluateBits(pos, mask, moves, winningCells(pos, mask), winningCells(pos ^ mask, mask));
}

/**
 * Returns how a connect4.mjs Board stands for the side to move, as the computer judges a draw
 * offer: above 0 it is ahead, 0 even, below 0 behind. A win in one is WIN_SCORE; with
 * EXACT_EMPTY_CELLS empty cells or fewer the exact score; else the medium level's 4-ply value.
 */
export function positionValue(board) {
  const { pos, mask, moves } = split(board);
  if (hasFour(pos ^ mask) || mask === BOARD_MASK) return solveBits(pos, mask, moves);
  if (winningCells(pos, mask) & (mask + BOTTOM_MASK) & BOARD_MASK) return WIN_SCORE;
  if (CELLS - moves <= EXACT_EMPTY_CELLS) return solveBits(pos, mask, moves);
  const values = fixedDepthValues(pos, mask, moves, LEVEL_DEPTHS.medium);
  return values.length === 0 ? -WIN_SCORE : Math.max(...values.map(([, value]) => value));
}

// The failover cases both healing suites play: a live match whose log is cut back as a Redis
// replica promoted after a failover holds it; each event must still reach each game once.

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";

import { Game, RelayHost, State, Timing } from "../../relay/pages/movewire.mjs";
import { until } from "./helpers.mjs";

export const FIRST = ["f1", "f2", "f3!"];
export const SECOND = ["s1", "s2"];
export const ORDER = ["f1", "s1", "f2", "s2", "f3!"];

/** [name, moves played before the cut, moves the log keeps]. */
export const CASES = [
  ["the first mover's own last move", 3, 2],
  ["own move and the partner's reply", 4, 2],
  ["the partner's move already delivered", 4, 3],
];

/** Moves when the test says; records the partner's moves it is handed. */
class Puppet extends Game {
  constructor(host, firstMove) {
    super(host, firstMove);
    this.received = [];
    this.enabled = false;
  }
  enable() {
    this.enabled = true;
  }
  disable() {
    this.enabled = false;
  }
  receiveMove(text) {
    this.received.push(text);
    return text.endsWith("!") ? State.GAME_ENDED : State.PLAYING_TO_MOVE;
  }
}

async function table(options) {
  const timing = new Timing({ pollWait: 1, backoffBase: 0.001, backoffCap: 0.01 });
  const room = randomUUID();
  const make = () =>
    new RelayHost({
      gameKey: "heal",
      room,
      timing,
      createGame: (h, first) => new Puppet(h, first),
      onDialog: () => {},
      ...options,
    });
  const a = make();
  const b = make();
  a.done = a.play();
  await until(() => a.ticket !== null, "the first seat", 5000);
  b.done = b.play();
  await until(() => a.game !== null && b.game !== null, "both games", 5000);
  return a.game.firstMove ? [a, b] : [b, a];
}

async function play(host, move) {
  await until(() => host.game.enabled, `the turn for ${move}`, 10000);
  host.move(move, move.endsWith("!"));
}

/**
 * Plays a match through `options` (fetch, relay), cuts its log with loseTail(match, keep)
 * after `played` moves, plays it out, and checks both games and the log; resolves the log.
 */
export async function playThroughFailover(options, loseTail, readLog, played, keptMoves) {
  const [first, second] = await table(options);
  const delivered = () => first.game.received.length + second.game.received.length;
  for (let i = 0; i < played; i++) {
    await play(i % 2 === 0 ? first : second, (i % 2 === 0 ? FIRST : SECOND)[i >> 1]);
    await until(() => delivered() === i + 1, `move ${i} delivered`, 10000);
  }
  await loseTail(first.ticket.match, 1 + keptMoves);
  for (let i = played; i < ORDER.length; i++) {
    await play(i % 2 === 0 ? first : second, (i % 2 === 0 ? FIRST : SECOND)[i >> 1]);
  }
  const outcomes = await Promise.all([first.done, second.done]);
  assert.deepEqual(outcomes.map((o) => o.reason), ["agreed", "agreed"]);
  assert.deepEqual(first.game.received, SECOND);
  assert.deepEqual(second.game.received, FIRST);
  const log = await readLog(first.ticket.match);
  assert.deepEqual(log.filter((e) => e.type === "move").map((e) => e.move), ORDER);
  assert.deepEqual(log.map((e) => e.seq), log.map((_, i) => i + 1));
  assert.equal(log.at(-1).type, "ended");
  return log;
}

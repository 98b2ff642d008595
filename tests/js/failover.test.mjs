// The JavaScript host heals when the relay's log falls behind (a Redis failover lost
// acknowledged events): the fake relay cuts a live match's log back as a promoted replica
// would hold it (FakeRelay.loseTail, like tests/support/lost_writes.py); each event still
// reaches each game once, in order, and the lost moves are posted again.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Game, RelayHost, State, Timing } from "../../relay/pages/movewire.mjs";
import { FakeRelay } from "./fake_relay.mjs";
import { until } from "./helpers.mjs";

const FIRST = ["f1", "f2", "f3!"];
const SECOND = ["s1", "s2"];
const ORDER = ["f1", "s1", "f2", "s2", "f3!"];

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

async function table(relay) {
  const timing = new Timing({ pollWait: 1, backoffBase: 0.001, backoffCap: 0.01 });
  const make = () =>
    new RelayHost({
      fetch: relay.fetch,
      gameKey: "heal",
      timing,
      createGame: (h, first) => new Puppet(h, first),
      onDialog: () => {},
    });
  const a = make();
  const b = make();
  a.done = a.play();
  await until(() => a.ticket !== null, "the first seat");
  b.done = b.play();
  await until(() => a.game !== null && b.game !== null, "both games");
  return a.game.firstMove ? [a, b] : [b, a];
}

async function play(host, move) {
  await until(() => host.game.enabled, `the turn for ${move}`, 5000);
  host.move(move, move.endsWith("!"));
}

const CASES = [
  ["the first mover's own last move", 3, 2],
  ["own move and the partner's reply", 4, 2],
  ["the partner's move already delivered", 4, 3],
];

describe("healing a log that fell behind (fake relay)", () => {
  for (const [name, played, keptMoves] of CASES) {
    test(`lost: ${name}`, async () => {
      const relay = new FakeRelay({ holdMs: 30 });
      const [first, second] = await table(relay);
      const delivered = () => first.game.received.length + second.game.received.length;
      for (let i = 0; i < played; i++) {
        await play(i % 2 === 0 ? first : second, (i % 2 === 0 ? FIRST : SECOND)[i >> 1]);
        await until(() => delivered() === i + 1, `move ${i} delivered`);
      }
      relay.loseTail(first.ticket.match, 1 + keptMoves);
      for (let i = played; i < ORDER.length; i++) {
        await play(i % 2 === 0 ? first : second, (i % 2 === 0 ? FIRST : SECOND)[i >> 1]);
      }
      const outcomes = await Promise.all([first.done, second.done]);
      assert.deepEqual(outcomes.map((o) => o.reason), ["agreed", "agreed"]);
      assert.deepEqual(first.game.received, SECOND);
      assert.deepEqual(second.game.received, FIRST);
      const log = relay.matches.get(first.ticket.match).log;
      assert.deepEqual(log.filter((e) => e.type === "move").map((e) => e.move), ORDER);
      assert.deepEqual(log.map((e) => e.seq), log.map((_, i) => i + 1));
      // The moves the log lost were posted again (a move the game made while the log was
      // still behind may be too: refused as stale, then posted in its turn).
      const posts = (move) => relay.requests.filter((r) => r.body?.move === move).length;
      for (const move of ORDER.slice(keptMoves, played)) assert.ok(posts(move) >= 2, move);
    });
  }
});

// The JavaScript host heals when the relay's log falls behind (a Redis failover lost
// acknowledged events): the fake relay cuts a live match's log back as a promoted replica
// would hold it (FakeRelay.loseTail, like tests/support/lost_writes.py); each event still
// reaches each game once, in order, and the lost moves are posted again. The same cases run
// against a real relay on Redis in failover-redis.mjs (tests/js/test_node_failover.py).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { CASES, ORDER, playThroughFailover } from "./failover_cases.mjs";
import { FakeRelay } from "./fake_relay.mjs";

describe("healing a log that fell behind (fake relay)", () => {
  for (const [name, played, keptMoves] of CASES) {
    test(`lost: ${name}`, async () => {
      const relay = new FakeRelay({ holdMs: 30 });
      await playThroughFailover(
        { fetch: relay.fetch },
        async (match, keep) => relay.loseTail(match, keep),
        async (match) => relay.matches.get(match).log,
        played,
        keptMoves,
      );
      // The moves the log lost were posted again (a move the game made while the log was
      // still behind may be too: refused as stale, then posted in its turn).
      const posts = (move) => relay.requests.filter((r) => r.body?.move === move).length;
      for (const move of ORDER.slice(keptMoves, played)) assert.ok(posts(move) >= 2, move);
    });
  }
});

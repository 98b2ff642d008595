// The failover cases against a real relay on a real Redis, cut back with
// tests/support/lost_writes.py's lose_tail. Not a *.test.mjs file: the node suite does not
// pick it up; tests/js/test_node_failover.py runs it with a relay on Redis of its own.

import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";

import { RelayClient } from "../../relay/pages/relay-client.mjs";
import { CASES, playThroughFailover } from "./failover_cases.mjs";

const { MOVEWIRE_REDIS_RELAY: RELAY, MOVEWIRE_REDIS_URL: REDIS, MOVEWIRE_PYTHON: PYTHON } =
  process.env;
const PREFIX = process.env.MOVEWIRE_REDIS_PREFIX;
const CUT =
  "import sys; from tests.support.lost_writes import lose_tail; " +
  "lose_tail(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))";

describe("healing a log that fell behind (a relay on Redis)", () => {
  for (const [name, played, keptMoves] of CASES) {
    test(`lost: ${name}`, async () => {
      await playThroughFailover(
        { relay: RELAY },
        async (match, keep) => {
          execFileSync(PYTHON, ["-c", CUT, REDIS, PREFIX, match, String(keep)], { timeout: 30000 });
        },
        (match) => new RelayClient({ relay: RELAY }).events(match, 0),
        played,
        keptMoves,
      );
    });
  }
});

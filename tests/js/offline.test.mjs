// What the pages keep for offline use (kept.mjs) and Your games' badge and aged clocks
// (your-games.mjs), without a browser: a finished match's record is kept and read back when the
// relay cannot be reached, a live one never; the badge counts the matches on the player's turn.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { KEPT_RECORDS, RECORDS_KEPT, keepMine, keptMine, readGames, readRecord } from "../../relay/pages/kept.mjs";
import { agedRows, showBadge, yourTurnCount } from "../../relay/pages/your-games.mjs";

/** A localStorage of a Map. */
function storage() {
  const kept = new Map();
  return {
    getItem: (key) => kept.get(key) ?? null,
    setItem: (key, value) => kept.set(key, String(value)),
    kept,
  };
}

/** A fetch that answers `text` (status 200) while online, and fails as a browser offline does. */
function network(text, online = { now: true }) {
  const fetcher = async () => {
    if (!online.now) throw new TypeError("Failed to fetch");
    return new Response(text, { status: 200 });
  };
  return { fetcher, online };
}

const FINISHED = '{"record": 1, "game": "xand0", "result": {"reason": "resigned"}}\n{"seq": 1}\n';
const LIVE = '{"record": 1, "game": "xand0", "result": null}\n';

describe("kept for offline use", () => {
  test("a finished match's record is kept and read back offline, with when", async () => {
    const store = storage();
    const { fetcher, online } = network(FINISHED);
    assert.deepEqual(await readRecord("http://r", "m1", store, fetcher), { text: FINISHED });
    online.now = false;
    const kept = await readRecord("http://r", "m1", store, fetcher);
    assert.equal(kept.text, FINISHED);
    assert.equal(typeof kept.keptAt, "number");
  });

  test("a live match's record is never kept, and offline it is not read", async () => {
    const store = storage();
    const { fetcher, online } = network(LIVE);
    await readRecord("http://r", "m2", store, fetcher);
    online.now = false;
    await assert.rejects(readRecord("http://r", "m2", store, fetcher), TypeError);
  });

  test("only the latest records are kept", async () => {
    const store = storage();
    const { fetcher } = network(FINISHED);
    for (let n = 0; n < RECORDS_KEPT + 3; n += 1) await readRecord("http://r", `m${n}`, store, fetcher);
    const records = Object.keys(JSON.parse(store.kept.get(KEPT_RECORDS)));
    assert.equal(records.length, RECORDS_KEPT);
    assert.equal(records[0], "m3");
  });

  test("the games and Your games are read back as kept, Your games for its key only", async () => {
    const store = storage();
    const { fetcher, online } = network(JSON.stringify({ games: [{ name: "xand0", title: "X and 0" }] }));
    await readGames("http://r", store, fetcher);
    online.now = false;
    assert.deepEqual(await readGames("http://r", store, fetcher), [{ name: "xand0", title: "X and 0" }]);
    keepMine("key-a", [{ match: "m" }], 1000, store);
    assert.deepEqual(keptMine("key-a", store), { rows: [{ match: "m" }], at: 1000 });
    assert.equal(keptMine("key-b", store), null);
  });
});

describe("Your games", () => {
  test("the badge counts the matches on the player's turn, and clears at none", () => {
    const calls = [];
    const nav = {
      setAppBadge: async (count) => calls.push(count),
      clearAppBadge: async () => calls.push(0),
    };
    const rows = [{ yourTurn: true }, { yourTurn: false }, { yourTurn: true }];
    showBadge(yourTurnCount(rows), nav);
    showBadge(yourTurnCount([]), nav);
    showBadge(2, {}); // a browser without a badge
    assert.deepEqual(calls, [2, 0]);
  });

  test("a kept list's clock of the seat to move has run down since it was read", () => {
    const rows = [
      { status: "playing", turn: 1, left: [500, 86400] },
      { status: "finished", turn: null, left: null },
    ];
    const aged = agedRows(rows, 3600);
    assert.deepEqual(aged[0].left, [500, 82800]);
    assert.equal(aged[1], rows[1]);
    assert.deepEqual(agedRows([{ status: "playing", turn: 0, left: [10, 5] }], 60)[0].left, [0, 5]);
  });
});

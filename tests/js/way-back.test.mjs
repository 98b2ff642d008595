// The lobby's way back to a match left on (way-back.mjs), without a DOM: which of a player
// key's matches have one, the seconds a table gives an away seat, and the words shown and said.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { parsePlayerMatch } from "../../relay/pages/players.mjs";
import { parseTable } from "../../relay/pages/table.mjs";
import { awaySeconds, leftWords, matchesOn, wayBackSaid, wayBackWords } from "../../relay/pages/way-back.mjs";

const row = (match, status, timeControl = null) =>
  parsePlayerMatch({ match, game: "xand0", seat: 1, status, turn: 0, your_turn: false, time_control: timeControl });

describe("the way back", () => {
  test("is offered for a live match played or ending, never a correspondence one", () => {
    const rows = [
      row("playing", "playing"),
      row("clocked", "playing", { kind: "fischer", base: 300, increment: 3 }),
      row("ending", "ending"),
      row("waiting", "waiting"),
      row("finished", "finished"),
      row("post", "playing", { kind: "deadline", per_move: 86400 }),
    ];
    assert.deepEqual(
      matchesOn(rows).map((entry) => entry.match),
      ["playing", "clocked", "ending"],
    );
  });

  test("counts down only while the relay shows the seat away, and may abandon", () => {
    const table = (presence) => parseTable({ version: 2, names: [null, null], presence, chat: [] });
    const away = table([{ here: true }, { here: false, since: 1763864410.2, abandon_in: 27.4 }]);
    assert.equal(awaySeconds(away, 1), 27.4);
    assert.equal(awaySeconds(away, 0), null);
    const never = table([{ here: true }, { here: false, since: 1763864410.2, abandon_in: null }]);
    assert.equal(awaySeconds(never, 1), null);
    assert.equal(awaySeconds(null, 1), null);
  });

  test("says what it is in words, whole seconds rounded up and never below 0", () => {
    assert.equal(wayBackWords("X and 0"), "Your match of X and 0 is on: go back");
    assert.equal(leftWords(26.2), "27 s left to come back");
    assert.equal(leftWords(-3), "0 s left to come back");
    assert.equal(wayBackSaid("X and 0", null), "Your match of X and 0 is on.");
    assert.equal(wayBackSaid("X and 0", 27), "Your match of X and 0 is on: 27 s left to come back.");
  });
});

// The challenge pages' words and calls, without a DOM: a clock's value as the relay takes it
// and its words, who moves first as each side reads it, and the calls' paths, bearers and
// bodies (docs/protocol.md, "Challenges").

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { answerChallenge, challenge, challenges, follow } from "../../relay/pages/challenge-calls.mjs";
import { CLOCKS, controlOf } from "../../relay/pages/challenge-dialog.mjs";
import { clockWords, colourWords } from "../../relay/pages/challenges.mjs";
import { Transport } from "../../relay/pages/transport.mjs";

/** A Transport whose calls are recorded and answered from `answers`, in turn. */
class Recorded extends Transport {
  constructor(answers) {
    super();
    this.answers = answers;
    this.sent = [];
  }

  async call(method, path, token, body, options = {}) {
    this.sent.push({ method, path: options.path ?? path, token, body, final: options.final ?? false });
    return this.answers.shift();
  }
}

const OPEN = { id: "R".repeat(24), state: "open", game: "xand0", from: { id: "a", name: "Ann" }, to: { id: "b", name: null } };

describe("challenge words", () => {
  test("each clock offered reads back as its words", () => {
    for (const [value, words] of CLOCKS) assert.equal(clockWords(controlOf(value)), words);
    assert.deepEqual(controlOf("fischer:300:3"), { kind: "fischer", base: 300, increment: 3 });
    assert.deepEqual(controlOf("deadline:86400"), { kind: "deadline", per_move: 86400 });
    assert.equal(clockWords({ kind: "fischer", base: 42, increment: 1 }), "42 s + 1 s");
  });

  test("who moves first is said from each side", () => {
    assert.equal(colourWords("first", true), "you move first");
    assert.equal(colourWords("first", false), "they move first");
    assert.equal(colourWords("second", false), "you move first");
    assert.equal(colourWords("random", true), "first move at random");
  });
});

describe("challenge calls", () => {
  test("a held list names its version and wait; the bearer is the player key", async () => {
    const client = new Recorded([{ version: 7, incoming: [OPEN], outgoing: [] }]);
    const found = await challenges(client, "KEY", 6, 5);
    assert.equal(found.version, 7);
    assert.equal(found.incoming[0].id, OPEN.id);
    assert.deepEqual(client.sent[0], {
      method: "GET", path: "/v1/player/challenges?after=6&wait=5", token: "KEY", body: null, final: false,
    });
  });

  test("a challenge, an answer and a follow are refused at once, never waited out", async () => {
    const client = new Recorded([OPEN, { ...OPEN, state: "accepted", match: "M" }, { follows: [] }, OPEN]);
    await challenge(client, "KEY", { to: "b", game: "xand0", time_control: null, colour: "first", rated: false, name: null });
    await answerChallenge(client, "KEY", OPEN.id, "accept", "Bob");
    await follow(client, "KEY", "b", false, "Bob");
    await answerChallenge(client, "KEY", OPEN.id, "decline", "Bob", true);
    assert.deepEqual(client.sent.map((s) => s.final), [true, true, true, true]);
    assert.deepEqual(client.sent[3].body, { id: OPEN.id, action: "decline", block: true });
    assert.equal("name" in client.sent[0].body, false);
    assert.deepEqual(client.sent[1].body, { id: OPEN.id, action: "accept", name: "Bob" });
    assert.deepEqual(client.sent[2].body, { id: "b", follow: false });
  });

  test("an answer that is not a challenge is refused", async () => {
    await assert.rejects(challenges(new Recorded([{ version: 1, incoming: [{}], outgoing: [] }]), "KEY"));
  });
});

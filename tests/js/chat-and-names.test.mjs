// The chat's lines said and not yet shown (chat-outbox.mjs), sent one at a time and in order,
// kept until the table carries them, said to wait once they wait a while; whether a chat list
// shows its newest line (chat-panel.mjs); and the one word for a player without a name
// (names.mjs), with the name element that cuts a long one. No DOM, no relay.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ChatOutbox, WAITING_SHOWN_MS, waitingWords } from "../../relay/pages/chat-outbox.mjs";
import { atNewest } from "../../relay/pages/chat-panel.mjs";
import { NAMELESS, nameElement, shownName } from "../../relay/pages/names.mjs";
import { againstWords } from "../../relay/pages/way-back.mjs";

/** A send(text) whose answers the test gives, one call at a time, as a paced relay would. */
function pacedRelay() {
  const calls = [];
  const said = [];
  const send = (text) =>
    new Promise((resolve, reject) => {
      calls.push({ text, resolve, reject });
    });
  /** Answers the oldest call: the line's number (or the error given). */
  const answer = async (error = null) => {
    const call = calls.shift();
    assert.ok(call, "no line was sent");
    if (error !== null) call.reject(error);
    else {
      said.push(call.text);
      call.resolve(said.length);
    }
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { send, calls, said, answer };
}

const states = (outbox) => outbox.lines.map((line) => `${line.text}:${line.state}`);

describe("the chat's outbox", () => {
  test("sends the lines one at a time, in the order said, and keeps them until the table shows them", async () => {
    const relay = pacedRelay();
    let changes = 0;
    const outbox = new ChatOutbox(relay.send, { changed: () => changes++ });
    outbox.add("one");
    outbox.add("two");
    outbox.add("three");
    // One line on the wire at a time: lines retried side by side could arrive out of order.
    assert.deepEqual(relay.calls.map((call) => call.text), ["one"]);
    assert.deepEqual(states(outbox), ["one:waiting", "two:waiting", "three:waiting"]);
    assert.equal(outbox.waiting, 3);
    await relay.answer();
    assert.deepEqual(states(outbox), ["one:sent", "two:waiting", "three:waiting"]);
    assert.deepEqual(relay.calls.map((call) => call.text), ["two"]);
    // The table shows line 1: it leaves the outbox, never shown twice.
    outbox.shown(1);
    assert.deepEqual(states(outbox), ["two:waiting", "three:waiting"]);
    await relay.answer();
    await relay.answer();
    assert.deepEqual(relay.said, ["one", "two", "three"]);
    assert.deepEqual(states(outbox), ["two:sent", "three:sent"]);
    outbox.shown(3);
    assert.deepEqual(outbox.lines, []);
    assert.equal(relay.calls.length, 0);
    assert.ok(changes > 0);
  });

  test("drops a line as it is answered when the table showed it first", async () => {
    const relay = pacedRelay();
    const outbox = new ChatOutbox(relay.send);
    outbox.add("quick");
    outbox.shown(1); // the table's poll brought the line before the post's answer
    await relay.answer();
    assert.deepEqual(outbox.lines, []);
  });

  test("says lines wait only once the oldest has waited a while", () => {
    const relay = pacedRelay();
    let now = 1000;
    const outbox = new ChatOutbox(relay.send, { now: () => now });
    assert.equal(outbox.overdue(), 0);
    outbox.add("a");
    now += 10;
    outbox.add("b");
    assert.equal(outbox.overdue(), 0);
    now = 1000 + WAITING_SHOWN_MS;
    assert.equal(outbox.overdue(), 2);
    assert.equal(waitingWords(2), "2 lines waiting to send…");
    assert.equal(waitingWords(1), "1 line waiting to send…");
  });

  test("keeps a refused line and those behind it, unsent, until the next line is said", async () => {
    const relay = pacedRelay();
    const failures = [];
    const outbox = new ChatOutbox(relay.send, { failed: (error, line) => failures.push([error.code, line.text]) });
    outbox.add("a");
    outbox.add("b");
    await relay.answer({ code: "match/finished" });
    assert.deepEqual(failures, [["match/finished", "a"]]);
    assert.deepEqual(states(outbox), ["a:unsent", "b:unsent"]);
    assert.equal(relay.calls.length, 0, "nothing sent behind a refused line");
    outbox.add("c");
    assert.deepEqual(states(outbox), ["c:waiting"]);
    assert.deepEqual(relay.calls.map((call) => call.text), ["c"]);
  });

  test("forgets a match's lines when another starts, and their late answers", async () => {
    const relay = pacedRelay();
    const outbox = new ChatOutbox(relay.send);
    outbox.add("old");
    outbox.clear();
    assert.deepEqual(outbox.lines, []);
    outbox.add("new");
    assert.deepEqual(relay.calls.map((call) => call.text), ["old", "new"]);
    await relay.answer(); // the old match's answer: dropped
    assert.deepEqual(states(outbox), ["new:waiting"]);
    await relay.answer();
    assert.deepEqual(states(outbox), ["new:sent"]);
  });
});

describe("the chat list", () => {
  test("follows its newest line while its reader is at the end, not once scrolled back", () => {
    assert.equal(atNewest(100, 0, 100), true); // no overflow
    assert.equal(atNewest(500, 340, 160), true);
    assert.equal(atNewest(500, 330, 160), true); // within a few pixels
    assert.equal(atNewest(500, 0, 160), false);
  });
});

describe("a player's name as shown", () => {
  test("is one neutral word for a player without a name", () => {
    assert.equal(NAMELESS, "Anonymous");
    for (const none of [null, undefined, "", "   ", 7]) assert.equal(shownName(none), "Anonymous");
    assert.equal(shownName("Ann"), "Ann");
    assert.equal(shownName("<b>Bob</b>"), "<b>Bob</b>");
    assert.equal(againstWords(null), "against Anonymous");
    assert.equal(againstWords("Ann"), "against Ann");
  });

  test("is an element whose title holds a long name whole, as text", () => {
    const document = { createElement: (tag) => ({ tag }) };
    const long = "Maximiliana-Bartholomea-Ravensby"; // 32 characters, the most a name has
    const named = nameElement(document, long);
    assert.equal(named.tag, "span");
    assert.equal(named.className, "shown-name");
    assert.equal(named.textContent, long);
    assert.equal(named.title, long);
    const nameless = nameElement(document, null);
    assert.equal(nameless.textContent, "Anonymous");
    assert.equal(nameless.title, undefined);
  });
});

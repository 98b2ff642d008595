// Takeback races in the JavaScript host against a real relay (MOVEWIRE_RELAY, set by
// test_node_suite.py), the twins of tests/sdk/test_takeback_race.py: a takeback asked while this
// side's own move is held for the reply or not even posted yet, and a move made just as the
// partner's acceptance arrives. Each is read from the log: the match goes on, the games agree
// with it, nobody resigns.

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, describe, test } from "node:test";

import { BoardGame } from "../../relay/pages/board-game.mjs";
import { Inbox } from "../../relay/pages/inbox.mjs";
import { RelayHost, State, Timing } from "../../relay/pages/movewire.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";
import { until } from "./helpers.mjs";

const RELAY = process.env.MOVEWIRE_RELAY;
const skip = RELAY ? false : "MOVEWIRE_RELAY names no relay (pytest runs this suite with one)";
const WAIT_MS = 5000;
const NO_VIEW = { update() {} };

/**
 * Returns a fetch whose answers to polls of the log can be held back (while `gate` is a
 * Promise), until the gate opens or the host stops the poll, as a real fetch is.
 */
function gated() {
  const holder = { gate: null };
  holder.fetch = async (url, init = {}) => {
    const response = await fetch(url, init);
    const text = await response.text();
    if (new URL(url).pathname.endsWith("/events") && holder.gate !== null) {
      await new Promise((resolve, reject) => {
        holder.gate.then(resolve);
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    }
    return new Response(text, { status: response.status, headers: response.headers });
  };
  return holder;
}

/** Seats two X and 0 hosts in a room; resolves [first mover, second] once both play. */
async function seated() {
  const room = randomUUID();
  const hosts = [0, 1].map(() => {
    const dialogs = [];
    const polls = gated();
    const made = new RelayHost({
      fetch: polls.fetch,
      relay: RELAY,
      gameKey: "js-takeback-race",
      version: "1",
      room,
      timing: new Timing({ pollWait: 3 }),
      createGame: (h, first) => new BoardGame(h, first, x0, NO_VIEW),
      onDialog: (text) => dialogs.push(text),
    });
    return Object.assign(made, { dialogs, polls });
  });
  hosts[0].done = hosts[0].play();
  await until(() => hosts[0].ticket !== null, "the first seat", WAIT_MS);
  hosts[1].done = hosts[1].play();
  await until(() => hosts.every((h) => h.game !== null && h.table !== null), "the start", WAIT_MS);
  return hosts[0].game.firstMove ? hosts : [hosts[1], hosts[0]];
}

async function play(mover, text, other) {
  await until(() => mover.state === State.PLAYING_TO_MOVE, `${text}: the mover's turn`, WAIT_MS);
  mover.game.play(mover.game.rules.parseMove(text));
  await until(() => other.game.moves.at(-1)?.move === text, `${text} received`, WAIT_MS);
}

const feed = Inbox.prototype.feed;
after(() => {
  Inbox.prototype.feed = feed;
});

describe("takeback races through a real relay", { skip }, () => {
  test("a takeback asked while this side's move is held is asked after it", async () => {
    const [x, o] = await seated();
    await until(() => x.state === State.PLAYING_TO_MOVE, "x's turn", WAIT_MS);
    x.game.play(x.game.rules.parseMove("11"));
    await until(() => x.state === State.PLAYING_WAIT_MOVE, "the move held", WAIT_MS);
    const table = await x.askTakeback();
    assert.deepEqual([table.offer.at, table.offer.count], [2, 1]);
    await until(() => o.table.offer?.state === "offered", "the request at o", WAIT_MS);
    await o.answerOffer(true);
    for (const side of [x, o]) await until(() => side.game.moves.length === 0, "the move taken back", WAIT_MS);
    await play(x, "22", o);
    assert.equal(x.outcome, null);
    assert.equal(o.outcome, null);
    x.close();
    o.close();
  });

  test("an offer made in the same breath as the own move follows it", async () => {
    // X plays and asks to take the move back before its host has even posted it, then offers a
    // draw right after another move: each is made after X's move, neither refused as stale nor
    // made before the move (where it would lapse).
    const [x, o] = await seated();
    await until(() => x.state === State.PLAYING_TO_MOVE, "x's turn", WAIT_MS);
    x.game.play(x.game.rules.parseMove("11"));
    assert.equal(x.state, State.WAITING_SERVER_RESPONSE);
    const table = await x.askTakeback();
    assert.deepEqual([table.offer.at, table.offer.count], [2, 1]);
    await until(() => o.table.offer?.state === "offered", "the request at o", WAIT_MS);
    await o.answerOffer(true);
    for (const side of [x, o]) await until(() => side.game.moves.length === 0, "the move taken back", WAIT_MS);
    await until(() => x.state === State.PLAYING_TO_MOVE, "x's turn again", WAIT_MS);
    x.game.play(x.game.rules.parseMove("22"));
    const drawn = await x.offerDraw();
    assert.deepEqual([drawn.offer.kind, drawn.offer.at], ["draw", 4]);
    assert.equal(x.outcome, null);
    assert.deepEqual(x.dialogs, []);
    x.close();
    o.close();
  });

  test("a move made as the takeback's undo arrives is taken back with it, and told", async () => {
    const [x, o] = await seated();
    await play(x, "11", o);
    await play(o, "00", x);
    await x.askTakeback();
    await until(() => o.table.offer?.state === "offered", "the request at o", WAIT_MS);
    // X's player moves the moment its host's poll queues the undo, before the host hands it
    // to the game: on the board before the takeback. (O's polls wait meanwhile, so the only
    // undo queued is X's.)
    let release = () => {};
    o.polls.gate = new Promise((resolve) => (release = resolve));
    Inbox.prototype.feed = function (events) {
      feed.call(this, events);
      if (events.some((event) => event.type === "undo")) {
        Inbox.prototype.feed = feed;
        x.game.play(x.game.rules.parseMove("22"));
      }
    };
    await o.answerOffer(true);
    await until(() => x.game.moves.length === 0 && x.state === State.PLAYING_TO_MOVE, "x steps back", WAIT_MS);
    o.polls.gate = null;
    release();
    for (const side of [x, o]) await until(() => side.game.moves.length === 0, "all taken back", WAIT_MS);
    await until(() => x.state === State.PLAYING_TO_MOVE, "x's turn again", WAIT_MS);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a voided move is refused meanwhile
    assert.equal(x.game.moves.length, 0);
    assert.deepEqual(x.dialogs, ["Your move 22 was not played: the takeback was accepted just before it."]);
    await play(x, "02", o);
    assert.deepEqual(o.game.moves.map((m) => m.move), ["02"]);
    assert.equal(x.outcome, null);
    assert.equal(o.outcome, null);
    x.close();
    o.close();
  });
});

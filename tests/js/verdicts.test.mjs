// Verdicts (issue 26): a rejected move's reason reaches the partner, the dialogs say what
// happened, a referee's `over`, `illegal` and `disputed` give a real result; and the game
// writer's friction: a receiveMove() that returns a Promise, the end claim, data kept with
// the ticket. Against the in-memory fake of the protocol, which plays the relay's new fields.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as endings from "../../relay/pages/endings.mjs";
import {
  cleanReason,
  Game,
  loadTicket,
  MoveRejected,
  NO_REASON,
  parseEvent,
  Reason,
  REASON_LIMIT,
  RelayHost,
  Result,
  saveTicket,
  State,
  ticketFromJSON,
  ticketToJSON,
} from "../../relay/pages/movewire.mjs";
import { FakeRelay } from "./fake_relay.mjs";
import { pair, RecordingGame, recordingHost, until } from "./helpers.mjs";

const FULL = "column 3 is full";

describe("MoveRejected", () => {
  test("carries its reason, or the default", () => {
    assert.equal(new MoveRejected(FULL).reason, FULL);
    assert.equal(new MoveRejected().reason, NO_REASON);
    assert.equal(new MoveRejected(" \n ").reason, NO_REASON);
    assert.equal(new MoveRejected(FULL).message, FULL);
  });

  test("a reason is made one line of at most 200 characters", () => {
    assert.equal(cleanReason(" two\nlines\tand\u0000a null "), "two lines and a null");
    assert.equal(cleanReason("a\u2028b\u0085c"), "a b c");
    assert.equal(cleanReason("x".repeat(500)).length, REASON_LIMIT);
  });
});

describe("the ended event", () => {
  test("reads at, detail and a referee's winner", () => {
    const plain = parseEvent({ type: "ended", seq: 5, reason: "agreed", seat: 1 });
    assert.deepEqual([plain.at, plain.detail, plain.winner, plain.refereed], [null, "", null, false]);
    const drawn = parseEvent({ type: "ended", seq: 9, reason: "over", seat: 0, at: 8, winner: null });
    assert.deepEqual([drawn.at, drawn.winner, drawn.refereed], [8, null, true]);
    const illegal = parseEvent({
      type: "ended", seq: 9, reason: "illegal", seat: 0, at: 8, winner: 1, detail: FULL,
    });
    assert.deepEqual([illegal.reason, illegal.winner, illegal.detail], ["illegal", 1, FULL]);
    for (const bad of [{ at: 9 }, { at: "4" }, { winner: 2 }, { detail: 3 }]) {
      assert.throws(() => parseEvent({ type: "ended", seq: 9, reason: "over", seat: 0, ...bad }));
    }
  });
});

describe("the words", () => {
  test("the referee finding a move illegal tells the offender it lost", () => {
    const ended = { reason: "illegal", seat: 0, at: 29, detail: FULL, winner: 1, refereed: true };
    assert.deepEqual(endings.ending(ended, 0, () => null, null, 12), [
      Result.LOST,
      Reason.ILLEGAL,
      "The referee found your move 12 illegal: column 3 is full. You lose.",
    ]);
    assert.equal(
      endings.ending(ended, 1, () => null, null, 12)[2],
      "The referee found your partner's move 12 illegal: column 3 is full. You win.",
    );
  });
});

/** A referee that finds "9" illegal and "22" (sent as the end) won by its mover. */
const referee = {
  move: (match, event) => {
    if (event.move === "9") return { reason: "illegal", seat: event.seat, winner: 1 - event.seat, detail: "there is no column 9" };
    if (event.end) return { reason: "over", seat: event.seat, winner: event.seat, detail: "four in a row" };
    return null;
  },
  dispute: (match, event, disputer) => ({
    reason: "disputed", seat: disputer, winner: 1 - disputer, detail: "the referee found the move legal and the game not over",
  }),
};

describe("RelayHost and verdicts", () => {
  test("a rejected move's reason reaches the partner", async () => {
    const relay = new FakeRelay();
    const reject = () => {
      throw new MoveRejected(FULL);
    };
    const [a, b] = await pair(relay, { b: { answer: reject } });
    a.move("3");
    const [outA, outB] = await Promise.all([a.done, b.done]);
    const confirm = relay.requests.find((r) => r.line.endsWith("/confirm"));
    assert.deepEqual(confirm.body, { after: 2, agree: false, reason: FULL });
    assert.deepEqual(b.record.dialogs, ["Your game rejected your partner's move 1: column 3 is full. Disputed."]);
    assert.equal(outB.message, b.record.dialogs[0]);
    assert.deepEqual(a.record.dialogs, ["Your partner's game rejected your move 1: column 3 is full. Disputed."]);
    assert.deepEqual([outA.reason, outA.result, outA.at, outA.detail], [Reason.DISPUTED, Result.UNKNOWN, 2, FULL]);
  });

  test("a rejection with the move's own text, or with \"pass\", sends the default reason", async () => {
    const relay = new FakeRelay();
    const reject = (text) => {
      throw new MoveRejected(text); // as games threw it before reasons
    };
    const [a, b] = await pair(relay, { b: { answer: reject } });
    a.move("3");
    await Promise.all([a.done, b.done]);
    assert.equal(relay.requests.find((r) => r.line.endsWith("/confirm")).body.reason, NO_REASON);
  });

  test("a refereed end is the partner's loss, and its confirm refused as finished is no error", async () => {
    const relay = new FakeRelay({ referee });
    const [a, b] = await pair(relay, {
      b: { answer: () => State.GAME_ENDED },
      createGame: (h, first) => Object.assign(new RecordingGame(h, first, () => State.GAME_ENDED), {
        result: () => (first ? Result.WON : Result.LOST),
      }),
    });
    a.move("22", true);
    const [outA, outB] = await Promise.all([a.done, b.done]);
    assert.deepEqual([outA.result, outA.reason, outA.winner, outA.refereed], [Result.WON, Reason.OVER, a.ticket.seat, true]);
    assert.deepEqual([outB.result, outB.reason, outB.detail, outB.at], [Result.LOST, Reason.OVER, "four in a row", 2]);
    // Both games knew who won; the referee's words say how.
    assert.deepEqual([a.record.dialogs, b.record.dialogs], [["You win: four in a row."], ["You lose: four in a row."]]);
  });

  test("the referee finding a move illegal: the offender loses, told why", async () => {
    const relay = new FakeRelay({ referee });
    const [a, b] = await pair(relay);
    a.move("9");
    const [outA, outB] = await Promise.all([a.done, b.done]);
    assert.deepEqual([outA.result, outA.reason], [Result.LOST, Reason.ILLEGAL]);
    assert.deepEqual(a.record.dialogs, ["The referee found your move 1 illegal: there is no column 9. You lose."]);
    assert.deepEqual([outB.result, outB.reason, outB.byMe], [Result.WON, Reason.ILLEGAL, false]);
    assert.deepEqual(b.record.dialogs, ["The referee found your partner's move 1 illegal: there is no column 9. You win."]);
  });

  test("a dispute the referee finds wrong is lost by the disputer", async () => {
    const relay = new FakeRelay({ referee });
    const reject = () => {
      throw new MoveRejected(FULL);
    };
    const [a, b] = await pair(relay, { b: { answer: reject } });
    a.move("3");
    const [outA, outB] = await Promise.all([a.done, b.done]);
    assert.deepEqual([outB.result, outB.reason, outB.byMe], [Result.LOST, Reason.DISPUTED, true]);
    assert.equal(b.record.dialogs.at(-1), "Your game disputed your partner's move 1, but the referee found it legal. You lose.");
    assert.equal(outA.result, Result.WON);
    assert.equal(
      a.record.dialogs.at(-1),
      "Your partner's game disputed your move 1, but the referee found it legal. You win.",
    );
  });
});

/** Returns the hex SHA-256 of a text, by WebCrypto (a Promise). */
async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Counts to 6, each move "n:hash" with the SHA-256 of the number; its receiveMove checks
 * the hash with WebCrypto, so it answers with a Promise.
 */
class Hashed extends Game {
  constructor(host, firstMove, log) {
    super(host, firstMove);
    this.count = 0;
    this.log = log;
    this.claims = [];
  }

  enable() {
    this.count += 1;
    sha256(String(this.count)).then((hash) => this.host.move(`${this.count}:${hash}`, this.count === 6));
  }

  disable() {}

  async receiveMove(move) {
    this.claims.push(this.host.endClaimed);
    const [number, hash] = move.split(":");
    this.log.push(`start ${number}`);
    const expected = await sha256(number);
    await new Promise((resolve) => setTimeout(resolve, 5)); // longer than the next poll
    this.log.push(`end ${number}`);
    if (hash !== expected) throw new MoveRejected(`the hash of ${number} is wrong`);
    this.count = Number(number);
    return this.count === 6 ? State.GAME_ENDED : State.PLAYING_TO_MOVE;
  }

  result() {
    return this.count === 6 ? Result.DRAWN : null;
  }
}

describe("a receiveMove that returns a Promise", () => {
  test("is awaited, in log order, one at a time, with the end claim visible", async () => {
    const relay = new FakeRelay();
    const log = [];
    const createGame = (host, first) => new Hashed(host, first, log);
    const a = recordingHost({ fetch: relay.fetch, createGame });
    const b = recordingHost({ fetch: relay.fetch, createGame });
    const [outA, outB] = await Promise.all([a.play(), b.play()]);
    assert.deepEqual([outA.reason, outB.reason], [Reason.AGREED, Reason.AGREED]);
    assert.deepEqual(log, ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3", "start 4", "end 4", "start 5", "end 5", "start 6", "end 6"]);
    const first = a.game.firstMove ? a.game : b.game; // it receives 2, 4 and 6, the end
    assert.deepEqual(first.claims, [false, false, true]);
    assert.equal(a.endClaimed, false);
  });

  test("a rejection from a Promise disputes the move with its reason", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, {
      b: { answer: async () => { throw new MoveRejected("the hash is wrong"); } },
    });
    a.move("1:00");
    const [outA] = await Promise.all([a.done, b.done]);
    assert.equal(outA.detail, "the hash is wrong");
    assert.deepEqual(b.record.dialogs, ["Your game rejected your partner's move 1: the hash is wrong. Disputed."]);
  });
});

describe("game data kept with the ticket", () => {
  test("keep() hands onTicket a ticket that saves and resumes with it", async () => {
    const relay = new FakeRelay();
    const storage = new Map();
    const store = {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => storage.set(key, value),
      removeItem: (key) => storage.delete(key),
    };
    const [a, b] = await pair(relay, { a: { onTicket: (ticket) => saveTicket("game", ticket, store) } });
    assert.equal(a.kept, null);
    a.keep("salt-1f3a");
    assert.equal(a.kept, "salt-1f3a");
    assert.equal(loadTicket("game", store).kept, "salt-1f3a");
    a.close();
    const restored = [];
    const again = recordingHost({
      fetch: relay.fetch,
      resume: loadTicket("game", store),
      createGame: (host, first) => Object.assign(new RecordingGame(host, first), {
        restore() {
          restored.push(host.kept);
        },
      }),
    });
    await until(() => a.state !== undefined, "closed");
    again.play();
    await until(() => again.game !== null, "resumed");
    assert.equal(again.kept, "salt-1f3a");
    again.close();
    b.close();
  });

  test("a ticket without kept data reads as before, and one with it round-trips", () => {
    const old = ticketFromJSON('{"match":"m1","seat":0,"token":"t"}');
    assert.deepEqual({ ...old }, { match: "m1", seat: 0, token: "t" });
    assert.equal(ticketToJSON(old), '{"match":"m1","seat":0,"token":"t"}');
    const kept = ticketFromJSON(ticketToJSON({ ...old, kept: "secret" }));
    assert.equal(kept.kept, "secret");
    assert.throws(() => ticketFromJSON('{"match":"m1","seat":0,"token":"t","kept":3}'), TypeError);
  });

  test("keep() before a seat, or of no text, throws", () => {
    const host = new RelayHost({ createGame: () => null });
    assert.throws(() => host.keep("x"), /before the match has started/);
    assert.throws(() => host.keep(3), TypeError);
  });
});

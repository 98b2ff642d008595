// How a finished match is told to anyone (the replay's heading, "Your games"): who won, by
// side and name, and how, for every reason the relay ends a match with; and a move the relay
// never received, named by the host so that a page takes it off its board.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as xand0 from "../../examples/xand0/page/xand0.mjs";
import { endedWords, Reason, seatWords, winnerOf } from "../../relay/pages/endings.mjs";
import { describeMatch, parsePlayerMatch } from "../../relay/pages/players.mjs";
import { Replay, resultWords, withClaim } from "../../relay/pages/replay.mjs";
import { Reason as HostReason, State } from "../../relay/pages/movewire.mjs";
import { FakeRelay } from "./fake_relay.mjs";
import { pair, until } from "./helpers.mjs";

const named = (/** @type {string | null} */ name) => name ?? "Anonymous";
/** Seat 0 moved first, as X; seat 1 is 0. */
const who = seatWords(["X", "0"], 0, ["Ann", "Bob"], named);

describe("how a finished match ended, as anyone reads it", () => {
  test("every reason the relay ends a match with says who won and how", () => {
    const cases = [
      [{ reason: "agreed", seat: 1, claim: "win" }, "X (Ann) won: 0 (Bob) agreed the game was over."],
      [{ reason: "agreed", seat: 1, claim: "draw" }, "A draw: 0 (Bob) agreed the game was over."],
      [{ reason: "agreed", seat: 1, claim: "loss" }, "0 (Bob) won: X (Ann) ended the game with a losing move, and 0 (Bob) agreed."],
      [{ reason: "resigned", seat: 0 }, "0 (Bob) won: X (Ann) resigned."],
      [{ reason: "abandoned", seat: 1 }, "X (Ann) won: 0 (Bob) left the match."],
      [{ reason: "timeout", seat: 0 }, "0 (Bob) won: X (Ann) ran out of time."],
      [{ reason: "drawn", seat: 1 }, "A draw: the players agreed it."],
      [{ reason: "stalled", seat: 1 }, "X (Ann) won: 0 (Bob) stopped moving, and the win was claimed."],
      [{ reason: "over", seat: 0, winner: 0, detail: "three in a row" }, "X (Ann) won by the rules: three in a row."],
      [{ reason: "over", seat: 0, winner: null }, "A draw by the rules: the referee found the game drawn."],
      [{ reason: "illegal", seat: 1, winner: 0, detail: "that square is taken" }, "X (Ann) won by the rules: the referee found a move of 0 (Bob) illegal (that square is taken)."],
      [{ reason: "disputed", seat: 1, winner: 0 }, "X (Ann) won by the rules: 0 (Bob) disputed the last move, and the referee found it legal."],
      [{ reason: "disputed", seat: 1, detail: "the game is not over" }, "No result: 0 (Bob) disputed the last move (the game is not over)."],
      [{ reason: "unconfirmed", seat: 1, claim: "win" }, "X (Ann) claimed the win: 0 (Bob) never confirmed the end."],
      [{ reason: "unconfirmed", seat: 1 }, "No result: 0 (Bob) never confirmed the end."],
      // The ender's game gave its words for the end: they say how.
      [{ reason: "agreed", seat: 1, claim: "win", detail: "three in a row" }, "X (Ann) won: three in a row, and 0 (Bob) agreed."],
      [{ reason: "agreed", seat: 1, claim: "draw", detail: "a draw: the board is full" }, "A draw: the board is full, and 0 (Bob) agreed."],
      [{ reason: "agreed", seat: 1, claim: "loss", detail: "took the last stone" }, "0 (Bob) won: X (Ann) ended the game with a losing move (took the last stone), and 0 (Bob) agreed."],
      [{ reason: "agreed", seat: 1, detail: "three mills" }, "The game ended: three mills, and 0 (Bob) agreed."],
      [{ reason: "unconfirmed", seat: 1, claim: "win", detail: "three in a row" }, "X (Ann) claimed the win: 0 (Bob) never confirmed the end (three in a row)."],
    ];
    for (const [result, words] of cases) assert.equal(endedWords(result, who), words, JSON.stringify(result));
    const told = new Set(cases.map(([result]) => result.reason));
    const relays = Object.values(Reason).filter((r) => !["cancelled", "connection_lost", "error"].includes(r));
    assert.deepEqual([...told].sort(), [...relays].sort(), "each of the relay's reasons is told");
  });

  test("the winner of an agreed end is what its mover claimed; an unverified dispute has none", () => {
    assert.equal(winnerOf({ reason: "agreed", seat: 0, claim: "win" }), 1);
    assert.equal(winnerOf({ reason: "agreed", seat: 0, claim: "loss" }), 0);
    assert.equal(winnerOf({ reason: "agreed", seat: 0, claim: "draw" }), null);
    assert.equal(winnerOf({ reason: "agreed", seat: 0 }), undefined);
    assert.equal(winnerOf({ reason: "disputed", seat: 0, detail: "no" }), undefined);
    // A live `ended` event says refereed: false and winner: null without a referee.
    assert.equal(winnerOf({ reason: "resigned", seat: 0, winner: null, refereed: false }), 1);
    assert.equal(winnerOf({ reason: "over", seat: 1, winner: null, refereed: true }), null);
  });

  test("seats are their sides, with names when either has one, and the reader's is 'you'", () => {
    const first1 = seatWords(["X", "0"], 1, [null, "Bob"], named);
    assert.deepEqual([first1(1), first1(0)], ["X (Bob)", "0 (Anonymous)"]);
    const none = seatWords(["X", "0"], 0, [null, null], named);
    assert.deepEqual([none(0), none(1)], ["X", "0"]);
    const mine = seatWords(["Red", "Yellow"], 0, ["Ann", "Bob"], named, 1);
    assert.deepEqual([mine(0), mine(1)], ["Red (Ann)", "Yellow (you)"]);
  });

  test("a replay finds who won an agreed end sent without a claim on its final board", () => {
    const moves = ["00", "10", "11", "20", "22"];
    const events = [{ seq: 1, type: "started", first: 1 }];
    moves.forEach((move, i) => events.push({ seq: i + 2, type: "move", seat: (1 + i) % 2, move, end: i === 4 }));
    const replay = new Replay(xand0);
    replay.add(events);
    const header = { first: 1, names: ["Bob", "Ann"], result: { reason: "agreed", seat: 0 } };
    assert.deepEqual(withClaim(header.result, replay, 1), { reason: "agreed", seat: 0, claim: "win" });
    assert.equal(resultWords(header, ["X", "0"], named, replay), "X (Ann) won: 0 (Bob) agreed the game was over.");
    // A claim the record gives is kept; without the replay, nobody can say.
    const claimed = { ...header, result: { reason: "agreed", seat: 0, claim: "draw" } };
    assert.equal(resultWords(claimed, ["X", "0"], named, replay), "A draw: 0 (Bob) agreed the game was over.");
    assert.equal(resultWords(header, ["X", "0"], named), "The game ended, and 0 (Bob) agreed it was over.");
  });

  test("Your games says who won a finished match and how, the reader as 'you'", () => {
    const row = {
      match: "m1", game: "xand0", seat: 1, status: "finished", turn: null, your_turn: false,
      first: 1, names: ["Bob", "Ann"], result: { reason: "agreed", seat: 0, claim: "win" },
    };
    assert.equal(describeMatch(parsePlayerMatch(row), ["X", "0"]), "Finished · X (you) won: 0 (Bob) agreed the game was over");
    const resigned = parsePlayerMatch({ ...row, result: { reason: "resigned", seat: 1 } });
    assert.equal(describeMatch(resigned, ["X", "0"]), "Finished · 0 (Bob) won: X (you) resigned");
    // A game whose sides are not known is told by first and second player; an old relay's
    // row without first or names still says who won.
    const bare = parsePlayerMatch({ ...row, first: undefined, names: undefined, seat: 0 });
    assert.equal(describeMatch(bare), "Finished · Second player won: First player (you) agreed the game was over");
  });
});

describe("a move the relay never received", () => {
  const MOVE = (/** @type {string} */ method, /** @type {string} */ path) => method === "POST" && path.endsWith("/moves");

  /** Pairs two hosts; returns [the side to move, the other]. */
  async function seated(relay) {
    const [a, b] = await pair(relay);
    await until(() => a.state === State.PLAYING_TO_MOVE || b.state === State.PLAYING_TO_MOVE, "a turn");
    return a.state === State.PLAYING_TO_MOVE ? [a, b] : [b, a];
  }

  test("a move refused as the relay forgot the match is named lost", async () => {
    const relay = new FakeRelay();
    const [mover, other] = await seated(relay);
    relay.failNext(MOVE, { status: 404, code: "match/unknown" });
    mover.move("m1");
    const outcome = await mover.done;
    assert.equal(outcome.reason, HostReason.ERROR);
    assert.equal(mover.turnLost, true);
    other.close();
    await other.done;
  });

  test("a move the relay took is not, nor is a host's before it moves", async () => {
    const relay = new FakeRelay();
    const [mover, other] = await seated(relay);
    assert.equal(mover.turnLost, false);
    mover.move("m1");
    await until(() => other.game.received.includes("m1"), "the move delivered");
    other.resign();
    await Promise.all([mover.done, other.done]);
    assert.equal(mover.outcome.reason, HostReason.RESIGNED);
    assert.equal(mover.turnLost, false);
    assert.equal(other.turnLost, false);
  });
});

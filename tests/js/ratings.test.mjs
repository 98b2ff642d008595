// Claims and ratings in the JavaScript host and client, against the in-memory protocol fake:
// a game-ending move claims the mover's result, the partner's game checks it, and the
// ratings reads and a seek's rating range reach the relay as docs/ratings.md says.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as endings from "../../relay/pages/endings.mjs";
import {
  BAD_RANGE,
  changeWords,
  checkClaim,
  claimOf,
  lostWrites,
  parseEvent,
  ProtocolError,
  ratingRangeJson,
  Reason,
  RelayClient,
  Result,
  scoreWords,
  State,
  WRONG_CLAIM,
} from "../../relay/pages/movewire.mjs";
import { FakeRelay } from "./fake_relay.mjs";
import { pair, recordingHost, until } from "./helpers.mjs";

describe("claims", () => {
  test("a mover claims its game's result, or nothing when it cannot tell", () => {
    assert.equal(claimOf(Result.WON), "win");
    assert.equal(claimOf(Result.DRAWN), "draw");
    assert.equal(claimOf(Result.LOST), "loss");
    assert.equal(claimOf(Result.UNKNOWN), null);
    assert.equal(claimOf(null), null);
  });

  test("the partner's game checks the claim's mirror, and cannot-tell finds nothing wrong", () => {
    assert.equal(checkClaim("win", Result.LOST), "");
    assert.equal(checkClaim("draw", Result.DRAWN), "");
    assert.equal(checkClaim("loss", Result.WON), "");
    assert.equal(checkClaim("win", null), "");
    assert.equal(checkClaim("win", Result.UNKNOWN), "");
    assert.equal(checkClaim(null, Result.WON), "");
    assert.equal(checkClaim("win", Result.WON), WRONG_CLAIM("a win", "a loss"));
    assert.equal(
      checkClaim("loss", Result.DRAWN),
      "the claimed result is wrong: the mover claimed a loss, its partner's game finds a draw",
    );
  });

  test("a move event reads its claim; a bad one is a protocol error", () => {
    const raw = { type: "move", seq: 4, seat: 0, move: "22", end: true, claim: "draw" };
    assert.equal(parseEvent(raw).claim, "draw");
    assert.equal(parseEvent({ ...raw, claim: undefined }).claim, null);
    assert.throws(() => parseEvent({ ...raw, claim: "won" }), ProtocolError);
  });

  test("a lost game-ending move is posted again with its claim", () => {
    const delivered = new Map([[3, { type: "move", seq: 3, seat: 1, move: "22", end: true, claim: "win" }]]);
    assert.deepEqual(lostWrites(delivered, 2, 1, null), [
      { kind: "move", after: 2, move: "22", end: true, claim: "win" },
    ]);
  });

  test("the host sends its game's claim with a game-ending move, and the partner agrees", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.GAME_ENDED } });
    a.game.result = () => Result.WON;
    b.game.result = () => Result.LOST;
    a.move("22", true);
    const [outA, outB] = await Promise.all([a.done, b.done]);
    const move = relay.requests.find((r) => r.line.endsWith("/moves"));
    assert.deepEqual(move.body, { after: 1, move: "22", end: true, claim: "win" });
    const confirm = relay.requests.find((r) => r.line.endsWith("/confirm"));
    assert.deepEqual(confirm.body, { after: 2, agree: true });
    assert.deepEqual([outA.reason, outA.result, outB.result], [Reason.AGREED, Result.WON, Result.LOST]);
    const client = new RelayClient({ fetch: relay.fetch });
    assert.deepEqual(await client.matchRatings(a.ticket.match), { rated: "pending", ratings: null });
    assert.equal(await a.ratingChange(0), null, "still pending after the wait");
    const changes = [{ before: 1500, after: 1742 }, { before: 1500, after: 1258 }];
    relay.rate(a.ticket.match, changes);
    const rated = await client.matchRatings(a.ticket.match);
    assert.deepEqual(rated.ratings[0], changes[0]);
    assert.deepEqual(await a.ratingChange(), changes[a.ticket.seat]);
    assert.deepEqual(await b.ratingChange(), changes[b.ticket.seat]);
  });

  test("a game that cannot tell its result sends no claim, and the end is not rated", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.GAME_ENDED } });
    a.move("22", true);
    await Promise.all([a.done, b.done]);
    const move = relay.requests.find((r) => r.line.endsWith("/moves"));
    assert.deepEqual(move.body, { after: 1, move: "22", end: true });
    const client = new RelayClient({ fetch: relay.fetch });
    assert.equal((await client.matchRatings(a.ticket.match)).rated, false);
  });

  test("a claim the partner's game finds wrong is disputed, with words for both", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.GAME_ENDED } });
    a.game.result = () => Result.WON;
    b.game.result = () => Result.WON; // b's game says the mover lost
    a.move("22", true);
    const [outA, outB] = await Promise.all([a.done, b.done]);
    const confirm = relay.requests.find((r) => r.line.endsWith("/confirm"));
    const reason = WRONG_CLAIM("a win", "a loss");
    assert.deepEqual(confirm.body, { after: 2, agree: false, reason });
    assert.deepEqual([outA.reason, outB.reason], [Reason.DISPUTED, Reason.DISPUTED]);
    assert.deepEqual([outA.result, outB.result], [Result.UNKNOWN, Result.UNKNOWN]);
    assert.deepEqual(b.record.dialogs, [
      "Your game does not accept the result your partner claimed with its move 1: " +
        "the mover claimed a win, its partner's game finds a loss. Disputed.",
    ]);
    assert.deepEqual(a.record.dialogs, [
      "Your partner's game does not accept the result you claimed with your move 1: " +
        "the mover claimed a win, its partner's game finds a loss. Disputed.",
    ]);
  });

  test("a claimed end the partner's game cannot tell the result of is agreed", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.GAME_ENDED } });
    a.game.result = () => Result.DRAWN;
    a.move("22", true);
    const [outA] = await Promise.all([a.done, b.done]);
    const confirm = relay.requests.find((r) => r.line.endsWith("/confirm"));
    assert.deepEqual(confirm.body, { after: 2, agree: true });
    assert.equal(outA.reason, Reason.AGREED);
    assert.equal(endings.ending({ reason: "agreed", seat: 1 }, 0, () => Result.DRAWN)[0], Result.DRAWN);
  });
});

describe("ratings reads", () => {
  test("the leaderboard and a key's ratings are read as the relay answers them", async () => {
    const relay = new FakeRelay();
    const players = [
      { rank: 1, id: "abc", name: "Ada", rating: 1873.2, deviation: 60, games: 30, shown: "1873" },
      { rank: 2, id: "def", name: null, rating: 1701, deviation: 80, games: 12, shown: "1701" },
    ];
    relay.boards.set("connect4", players);
    const rating = {
      game: "connect4", rating: 1742.8, deviation: 397, games: 1, provisional: true,
      shown: "1742?", at: 1700000000, history: [
        { match: "m1", at: 1700000000, score: 1, before: 1500, after: 1742.8, opponent: 1500 },
      ],
    };
    relay.ratings.set("key-1", [rating, { ...rating, game: "xand0" }]);
    const client = new RelayClient({ fetch: relay.fetch });
    assert.deepEqual(await client.leaderboard("connect4", 1), { game: "connect4", players: players.slice(0, 1) });
    assert.deepEqual((await client.leaderboard("dots")).players, []);
    assert.equal((await client.ratings("key-1")).length, 2);
    assert.deepEqual(await client.ratings("key-1", "connect4"), [rating]);
    assert.deepEqual(await client.ratings("key-unknown"), []);
    const line = relay.requests.find((r) => r.line === "GET /v1/player/ratings");
    assert.ok(line, "the ratings were read with the key as bearer");
  });

  test("a seek's rating range reaches the relay, with the player key", async () => {
    const relay = new FakeRelay();
    const a = recordingHost({ fetch: relay.fetch, player: "key-1", ratingRange: { within: 200 } });
    a.play();
    await until(() => a.ticket !== null, "a seat");
    const seek = relay.requests.find((r) => r.line === "POST /v1/seek");
    assert.deepEqual(seek.body.rating_range, { within: 200 });
    assert.equal(seek.body.player, "key-1");
    a.close();
  });

  test("a rating range is within alone or bounds; anything else is refused here", () => {
    assert.deepEqual(ratingRangeJson({ within: 100 }), { within: 100 });
    assert.deepEqual(ratingRangeJson({ min: 1400, max: 1700 }), { min: 1400, max: 1700 });
    assert.deepEqual(ratingRangeJson({ max: 1700 }), { max: 1700 });
    for (const bad of [{}, { within: 0 }, { within: 100, min: 1 }, { min: 1800, max: 1700 }, { max: 4001 }, { within: 1.5 }]) {
      assert.throws(() => ratingRangeJson(bad), { name: "RangeError", message: BAD_RANGE(bad) });
    }
  });

  test("a rating change and a score are said in words", () => {
    assert.equal(changeWords(1500, 1742.8), "1500 → 1742 (+242)");
    assert.equal(changeWords(1742.8, 1700.1), "1742 → 1700 (−42)");
    assert.equal(changeWords(1500, 1500.4), "1500 → 1500 (±0)");
    assert.deepEqual([1, 0.5, 0].map(scoreWords), ["won", "drawn", "lost"]);
  });
});

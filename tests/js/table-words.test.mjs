// What the pages make of the table, without a DOM: the words of presence, offers and claims,
// names as kept, who said a chat line, a record with undo events and chat lines, the
// protocol's new events and endings as the host reads them, and a player's moderation (the
// lines hidden, a ban's words, the seats' public ids).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ERASED, hiddenWords, speaker } from "../../relay/pages/chat-panel.mjs";
import { Clock, TimeControl } from "../../relay/pages/clock.mjs";
import * as dots from "../../examples/dots/page/dots.mjs";
import { ending, Reason, Result } from "../../relay/pages/endings.mjs";
import { cleanName, loadName, NAME_STORAGE, saveName } from "../../relay/pages/names.mjs";
import {
  bannedNotice,
  bannedWords,
  blockedAs,
  durationWords,
  moderationRefusal,
} from "../../relay/pages/moderation-panel.mjs";
import { parseEvent, playersOf } from "../../relay/pages/relay-client.mjs";
import { parseRecord, Replay, resultWords } from "../../relay/pages/replay.mjs";
import { claimView, offerView, presenceWords, refusalWords } from "../../relay/pages/table-panel.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";
import { MemoryStorage } from "./helpers.mjs";

const THEM = "Your opponent";
const offer = (kind, by, at, state, count = null) => ({ kind, by, at, state, count });

describe("presence", () => {
  test("counts down to abandonment, says away and back, and nothing while here", () => {
    const away = { here: false, since: 1, abandonIn: 47, abandonAt: 50_000 };
    assert.equal(presenceWords(away, "Opponent", 3_000), "Opponent disconnected: 47 s to come back");
    assert.equal(presenceWords(away, "Opponent", 40_100), "Opponent disconnected: 10 s to come back");
    assert.equal(presenceWords(away, null, 60_000), "disconnected: 0 s to come back");
    const correspondence = { here: false, since: 1, abandonIn: null, abandonAt: null };
    assert.equal(presenceWords(correspondence, "Opponent", 0), "Opponent is away.");
    const here = { here: true, since: null, abandonIn: null, abandonAt: null };
    assert.equal(presenceWords(here, "Opponent", 10_000, 9_000), "Opponent is back");
    assert.equal(presenceWords(here, "Opponent", 20_000, 9_000), "");
    assert.equal(presenceWords(here, "Opponent", 20_000), "");
    assert.equal(presenceWords(null, "Opponent", 0), "");
  });
});

describe("offers", () => {
  test("a standing offer shows Accept to the other seat and Withdraw to its maker", () => {
    assert.deepEqual(offerView(offer("draw", 1, 5, "offered"), 0, 5, THEM), {
      text: "Your opponent offers a draw.",
      accept: true,
      withdraw: false,
    });
    assert.deepEqual(offerView(offer("draw", 0, 5, "offered"), 0, 5, THEM), {
      text: "You offered a draw: waiting for your opponent...",
      accept: false,
      withdraw: true,
    });
    assert.equal(
      offerView(offer("takeback", 1, 5, "offered", 2), 0, 5, THEM).text,
      "Your opponent asks to take back their last move and your reply.",
    );
    assert.equal(
      offerView(offer("takeback", 1, 5, "offered", 1), 0, 5, "The computer").text,
      "The computer asks to take back their last move.",
    );
    // The log moved on: it lapsed, and shows nothing.
    assert.equal(offerView(offer("draw", 1, 5, "offered"), 0, 6, THEM).text, "");
  });

  test("outcomes show in plain words until the next move", () => {
    assert.equal(offerView(offer("draw", 0, 5, "declined"), 0, 5, THEM).text, "Your opponent declined the draw.");
    assert.equal(
      offerView(offer("takeback", 0, 5, "declined", 1), 0, 5, THEM).text,
      "Your opponent declined to take back your move.",
    );
    assert.equal(offerView(offer("draw", 1, 5, "declined"), 0, 5, THEM).text, "You declined the draw.");
    assert.equal(offerView(offer("takeback", 1, 5, "withdrawn", 1), 0, 5, THEM).text, "Your opponent withdrew the takeback request.");
    assert.equal(offerView(offer("draw", 0, 5, "withdrawn"), 0, 5, THEM).text, "You withdrew your draw offer.");
    assert.equal(offerView(offer("takeback", 1, 5, "accepted", 1), 0, 6, THEM).text, "Move taken back.");
    assert.equal(offerView(offer("takeback", 1, 5, "accepted", 2), 0, 6, THEM).text, "Moves taken back.");
    assert.equal(offerView(offer("takeback", 1, 5, "accepted", 2), 0, 7, THEM).text, "");
    assert.equal(offerView(offer("draw", 0, 5, "declined"), 0, 6, THEM).text, "");
    assert.equal(offerView(offer("draw", 0, 5, "lapsed"), 0, 5, THEM).text, "");
    assert.equal(offerView(null, 0, 5, THEM).text, "");
  });

  test("refusals are told plainly", () => {
    assert.equal(refusalWords({ code: "takeback/none" }), "There is no move of yours to take back.");
    assert.equal(refusalWords({ code: "x/y", detail: "Odd." }), "Not done: Odd.");
  });
});

describe("claims", () => {
  test("a countdown in the last minute, then the button", () => {
    assert.deepEqual(claimView(null, 0, THEM), { text: "", claim: false });
    assert.deepEqual(claimView(100_000, 0, THEM), { text: "", claim: false });
    assert.deepEqual(claimView(12_000, 500, THEM), {
      text: "Your opponent has not moved for a while: you may claim the win in 12 s.",
      claim: false,
    });
    assert.deepEqual(claimView(12_000, 12_000, THEM), {
      text: "Your opponent has not moved in time: you may claim the win.",
      claim: true,
    });
  });
});

describe("names", () => {
  test("are trimmed, cut to 32 characters, and kept without control or bidi characters", () => {
    assert.equal(cleanName("  Ann  "), "Ann");
    assert.equal(cleanName("   "), null);
    assert.equal(cleanName("A\u202eB\u0007C"), "ABC");
    assert.equal(cleanName("x".repeat(40)), "x".repeat(32));
    assert.equal(cleanName("e\u0301"), "\u00e9");
    const storage = new MemoryStorage();
    assert.equal(loadName(storage), null);
    assert.equal(saveName(" Bob ", storage), "Bob");
    assert.equal(storage.getItem(NAME_STORAGE), "Bob");
    assert.equal(loadName(storage), "Bob");
    assert.equal(saveName("", storage), null);
    assert.equal(loadName(storage), null);
  });

  test("a chat line is said by You, the seat's name, or its side", () => {
    const line = { n: 1, seat: 1, text: "hi" };
    assert.equal(speaker(line, 1, ["Ann", "Bob"], ["X", "0"]), "You");
    assert.equal(speaker(line, 0, ["Ann", "Bob"], ["X", "0"]), "Bob");
    assert.equal(speaker(line, null, ["Ann", null], ["X", "0"]), "0");
  });
});

describe("records and events with the table", () => {
  test("a record keeps its chat lines apart from the log", () => {
    const text = [
      { record: 1, game: "xand0", first: 0, names: ["Ann", "Bob"], chat: 1 },
      { seq: 1, type: "started", first: 0 },
      { seq: 2, type: "ended", reason: "drawn", seat: 1 },
      { type: "chat", n: 1, seat: 0, text: "<b>gg</b>", at: 1, time: 1 },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const { header, events, chat } = parseRecord(text);
    assert.deepEqual(header.names, ["Ann", "Bob"]);
    assert.deepEqual(events.map((e) => e.type), ["started", "ended"]);
    assert.deepEqual(chat.map((l) => l.text), ["<b>gg</b>"]);
    // How it ended, as anyone reads it (endings.mjs endedWords; tests/js/endings-shown.test.mjs).
    const named = (name) => name ?? "Anonymous";
    assert.equal(resultWords({ ...header, result: { reason: "drawn", seat: 1 } }, ["X", "0"], named), "A draw: the players agreed it.");
    assert.equal(resultWords({ ...header, result: { reason: "stalled", seat: 1 } }, ["X", "0"], named), "X (Ann) won: 0 (Bob) stopped moving, and the win was claimed.");
    // Verdicts (issue 26): a dispute's reason, and a referee's.
    const words = (result) => resultWords({ result, first: 0 }, ["X", "0"], named);
    assert.equal(words({ reason: "disputed", seat: 1, at: 4, detail: "column 3 is full" }), "No result: 0 disputed the last move (column 3 is full).");
    assert.equal(words({ reason: "disputed", seat: 1, at: 4, detail: "", winner: 0 }), "X won by the rules: 0 disputed the last move, and the referee found it legal.");
    assert.equal(words({ reason: "over", seat: 0, at: 8, detail: "four in a row", winner: 0 }), "X won by the rules: four in a row.");
    assert.equal(words({ reason: "over", seat: 0, at: 8, winner: null }), "A draw by the rules: the referee found the game drawn.");
    assert.equal(words({ reason: "over", seat: 0, at: 8, detail: "a draw: the board is full", winner: null }), "A draw by the rules: the board is full.");
    assert.equal(words({ reason: "illegal", seat: 0, at: 8, detail: "column 3 is full", winner: 1 }), "0 won by the rules: the referee found a move of X illegal (column 3 is full).");
  });

  test("a replay steps back over an undo, passes counted", () => {
    const replay = new Replay(dots);
    const move = (seq, seat, text) => ({ seq, type: "move", seat, move: text, end: false });
    replay.add([
      { seq: 1, type: "started", first: 0 },
      move(2, 0, "h00"),
      move(3, 1, "h10"),
      move(4, 0, "v00"),
      move(5, 1, "v01"), // closes the box: seat 0 passes
      { seq: 6, type: "pass", seat: 0 },
      { seq: 7, type: "undo", seat: 1, count: 2 },
      move(8, 1, "h30"),
    ]);
    assert.equal(replay.moves, 6);
    const undone = replay.positions[5];
    assert.equal(undone.event.type, "undo");
    assert.equal(undone.board.toText(), dots.Board.fromMoves(["h00", "h10", "v00"]).toText());
    assert.deepEqual(undone.last, dots.parseMove("v00"));
    assert.equal(replay.positions[6].board.toText(), dots.Board.fromMoves(["h00", "h10", "v00", "h30"]).toText());
    const x = new Replay(x0);
    x.add([{ seq: 1, type: "started", first: 0 }, move(2, 0, "11"), { seq: 3, type: "undo", seat: 0, count: 1 }]);
    assert.equal(x.positions[2].board.ply, 0);
    assert.equal(x.positions[2].last, null);
  });

  test("the host reads undo events, and draws and stalls as endings", () => {
    assert.deepEqual(parseEvent({ seq: 4, type: "undo", seat: 1, count: 2 }), {
      type: "undo",
      seq: 4,
      seat: 1,
      count: 2,
      left: null,
    });
    assert.deepEqual(parseEvent({ seq: 4, type: "undo", seat: 0, count: 1, left: [10.5, 20] }).left, [10.5, 20]);
    assert.throws(() => parseEvent({ seq: 4, type: "undo", seat: 0, count: 3 }), /does not define/);
    assert.equal(parseEvent({ seq: 9, type: "ended", reason: "stalled", seat: 0 }).reason, "stalled");
    assert.deepEqual(ending({ reason: "drawn", seat: 1 }, 0, () => null), [Result.DRAWN, Reason.DRAWN, "The draw was agreed."]);
    assert.deepEqual(ending({ reason: "stalled", seat: 0 }, 0, () => null), [
      Result.LOST,
      Reason.STALLED,
      "Your partner claimed the win: you took too long to move.",
    ]);
    assert.equal(ending({ reason: "stalled", seat: 1 }, 0, () => null)[0], Result.WON);
  });

  test("an undo sets both clocks and runs the asker's", () => {
    const clock = new Clock(TimeControl.fischer(300, 3), [280, 290], 1, 0);
    const after = clock.after({ type: "undo", seq: 6, seat: 0, count: 2, left: [250.5, 270] }, 1000);
    assert.deepEqual(after.read, [250.5, 270]);
    assert.equal(after.turn, 0);
    assert.deepEqual(after.left(3000), [248.5, 270]);
  });
});

describe("moderation", () => {
  test("hidden lines are counted in a note, and an erased line is said removed", () => {
    assert.equal(hiddenWords(1, "muted"), "1 line hidden (muted)");
    assert.equal(hiddenWords(3, "blocked"), "3 lines hidden (blocked)");
    assert.equal(ERASED, "(removed by the host)");
  });

  test("a ban is told in the relay's words, its seconds said plainly", () => {
    const detail = "This player key is banned from new matches on this relay for 600 s more: spam.";
    assert.equal(bannedWords(detail), "This player key is banned from new matches on this relay for 10 minutes more: spam.");
    const dialog = `The relay refused this side's request: 403 player/banned: ${detail}`;
    assert.equal(bannedNotice(dialog), bannedWords(detail));
    assert.equal(bannedNotice("The relay refused this side's request: 409 room/full: full."), null);
    assert.deepEqual(
      [1, 59.6, 119, 120, 7199, 7200, 172_799, 172_800, 864_000].map(durationWords),
      ["1 second", "60 seconds", "119 seconds", "2 minutes", "120 minutes", "2 hours", "48 hours", "2 days", "10 days"],
    );
    assert.equal(bannedWords("no seconds here"), "no seconds here");
  });

  test("blocks are found by public id, and refusals read plainly", () => {
    const blocks = [{ id: "a".repeat(12), name: null, kind: "mute", at: 1 }];
    assert.equal(blockedAs(blocks, "a".repeat(12)), "mute");
    assert.equal(blockedAs(blocks, "b".repeat(12)), null);
    assert.equal(blockedAs(blocks, null), null);
    assert.match(moderationRefusal({ code: "block/no_key" }), /without a player key/);
    assert.equal(moderationRefusal({ code: "x/y", detail: "why" }), "Not done: why");
  });

  test("a match's players are read by seat, null for a seat without a key", () => {
    assert.deepEqual(playersOf({ players: ["a".repeat(12), null] }), ["a".repeat(12), null]);
    assert.deepEqual(playersOf({ status: "playing" }), [null, null]);
    assert.throws(() => playersOf({ players: ["a"] }), /not protocol v1/);
    assert.throws(() => playersOf({ players: [1, null] }), /not protocol v1/);
  });
});

// The page's decisions that need no DOM: what the fragment asks for, when to resume, where the relay is.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  newRoomName,
  parseFragment,
  relayBeside,
  roomFragment,
  ROOM_NAME,
  shouldResume,
} from "../../relay/pages/play.mjs";
import { TimeControl } from "../../relay/pages/clock.mjs";
import { CLOCK_CHOICES, choiceOf, chosenControl, spokenLeft, spokenStep } from "../../relay/pages/clock-view.mjs";
import { rematchView } from "../../relay/pages/rematch.mjs";

describe("the game page", () => {
  test("reads a private room or a random game from the fragment", () => {
    assert.deepEqual(parseFragment("#room=k3v9q2xw7m"), { kind: "room", room: "k3v9q2xw7m", clock: "" });
    assert.deepEqual(parseFragment("#room=k3v9&clock=5%2B3"), { kind: "room", room: "k3v9", clock: "5+3" });
    assert.deepEqual(parseFragment("#play"), { kind: "play", within: null, rated: false });
    assert.deepEqual(parseFragment("#play&rated=1"), { kind: "play", within: null, rated: true });
    assert.deepEqual(parseFragment("#play&within=200"), { kind: "play", within: 200, rated: true });
    assert.deepEqual(parseFragment("#play&within=9000"), { kind: "play", within: null, rated: false });
    assert.deepEqual(parseFragment(""), { kind: "none" });
    assert.deepEqual(parseFragment("#room=../../etc"), { kind: "none" }, "not a room name");
    assert.deepEqual(parseFragment("#room=k3v9&public"), { kind: "room", room: "k3v9", listed: true, clock: "" });
    assert.deepEqual(parseFragment("#computer"), { kind: "computer", level: null, clock: null });
    assert.deepEqual(parseFragment("#computer&level=strong&clock=5%2B3"), { kind: "computer", level: "strong", clock: "5+3" });
  });

  test("writes a room link's fragment with the clock both seekers name", () => {
    assert.equal(roomFragment("k3v9"), "room=k3v9");
    assert.equal(roomFragment("k3v9", "5+3"), "room=k3v9&clock=5%2B3");
    assert.equal(parseFragment(`#${roomFragment("k3v9", "3d")}`).clock, "3d");
  });

  test("offers the clock choices and reads them as time controls", () => {
    assert.deepEqual(CLOCK_CHOICES.map(([value]) => value), ["", "5+3", "10", "1d", "3d"]);
    assert.equal(chosenControl(""), null);
    assert.equal(chosenControl("7+7"), null, "not a choice the page offers");
    assert.deepEqual(chosenControl("5+3"), TimeControl.fischer(300, 3));
    assert.deepEqual(chosenControl("1d"), TimeControl.deadline(86400));
    assert.equal(choiceOf(TimeControl.fischer(300, 3)), "5+3");
    assert.equal(choiceOf(TimeControl.deadline(259200)), "3d");
    assert.equal(choiceOf(TimeControl.fischer(60)), "", "not offered");
    assert.equal(choiceOf(null), "");
  });

  test("reads a clock's true time out by the minute, by ten seconds in the last one, then by the second", () => {
    const fischer = TimeControl.fischer(300, 3);
    assert.equal(spokenLeft(299.5, fischer), "4 minutes left");
    assert.equal(spokenLeft(241, fischer), "4 minutes left");
    assert.equal(spokenLeft(61, fischer), "1 minute left");
    assert.equal(spokenLeft(59, fischer), "59 seconds left");
    assert.equal(spokenLeft(41, fischer), "41 seconds left");
    assert.equal(spokenLeft(2.4, fischer), "2 seconds left");
    assert.equal(spokenLeft(1.5, fischer), "1 second left");
    assert.equal(spokenLeft(2 * 86400 + 4 * 3600 + 30, TimeControl.deadline(259200)), "2 days 4 hours left");
    // Said again only when the step changes: each minute, each ten seconds, each second from 5.
    const steps = (from, to) => new Set(Array.from({ length: from - to + 1 }, (_, i) => spokenStep(from - i, fischer)));
    assert.equal(steps(179, 120).size, 1);
    assert.equal(steps(50, 41).size, 1);
    assert.equal(steps(10, 6).size, 1);
    assert.equal(steps(5, 0).size, 6);
    assert.notEqual(spokenStep(60, fischer), spokenStep(59, fischer));
    assert.notEqual(spokenStep(11, fischer), spokenStep(10, fischer));
  });

  test("words a rematch as each side sees it, with the buttons to show", () => {
    assert.deepEqual(rematchView(null, 0), { text: "", offer: true, accept: false, decline: false });
    const offered = { version: 1, state: "offered", offers: [true, false], by: null, match: null };
    assert.equal(rematchView(offered, 0).text, "Rematch offered: waiting for your opponent...");
    assert.equal(rematchView(offered, 0).offer, false);
    assert.deepEqual(rematchView(offered, 1), {
      text: "Your opponent offers a rematch.",
      offer: false,
      accept: true,
      decline: true,
    });
    const declined = { version: 2, state: "declined", offers: [false, false], by: 1, match: null };
    assert.equal(rematchView(declined, 0).text, "Your opponent declined a rematch.");
    assert.equal(rematchView(declined, 1).text, "", "one's own no needs no words");
    assert.equal(rematchView({ ...declined, state: "lapsed", by: null }, 0).offer, true);
  });

  test("resumes a saved match unless the link asks for another", () => {
    const random = { match: "m", token: "t", room: null, finished: false };
    const inRoom = { ...random, room: "den" };
    assert.equal(shouldResume(null, { kind: "play" }), false);
    assert.equal(shouldResume(random, { kind: "none" }), true, "a plain reload");
    assert.equal(shouldResume(random, { kind: "play" }), true, "still playing: go back to it");
    assert.equal(shouldResume({ ...random, finished: true }, { kind: "play" }), false);
    assert.equal(shouldResume(inRoom, { kind: "room", room: "den" }), true);
    assert.equal(shouldResume(inRoom, { kind: "room", room: "attic" }), false, "another room");
    assert.equal(shouldResume(random, { kind: "computer" }), false, "the lobby's Play the computer");
  });

  test("finds the relay in the folder the page is served from", () => {
    assert.equal(relayBeside("http://h:8080/xand0.html#room=x"), "http://h:8080");
    assert.equal(relayBeside("https://example.org/games/connect4.html"), "https://example.org/games");
    assert.equal(relayBeside("https://example.org/games/"), "https://example.org/games");
  });

  test("makes room names the relay accepts, hard to guess", () => {
    const names = new Set(Array.from({ length: 200 }, () => newRoomName()));
    assert.equal(names.size, 200);
    for (const name of names) assert.match(name, ROOM_NAME);
  });
});

// The replay page: replay.html#match=ID shows a finished or live match move by move. A live
// match is followed as a spectator; while the relay does not answer, a notice says so and the
// page polls again from the last move it has.

import { ConnectionNotice, FORGOTTEN, PAGE_TIMING, lostFor } from "./connection.mjs";
import * as connect4 from "./connect4.mjs";
import { COLOURS, createConnect4View } from "./connect4-view.mjs";
import { createDotsView, lineWords } from "./dots-view.mjs";
import * as dots from "./dots.mjs";
import { ConnectionLostError, RelayRefusedError } from "./errors.mjs";
import { relayBeside } from "./play.mjs";
import { RelayClient } from "./relay-client.mjs";
import { Replay, parseRecord, resultWords, sideOf } from "./replay.mjs";
import * as xand0 from "./xand0.mjs";
import { SYMBOLS, createXand0View } from "./xand0-view.mjs";

/** The games this page can show, by game key. */
const GAMES = {
  xand0: {
    title: "X and 0",
    rules: xand0,
    sides: SYMBOLS,
    where: (move) => `at row ${move.row + 1}, column ${move.col + 1}`,
    createView: createXand0View,
  },
  connect4: {
    title: "Connect Four",
    rules: connect4,
    sides: COLOURS,
    where: (column) => `in column ${column + 1}`,
    createView: createConnect4View,
  },
  dots: {
    title: "Dots and Boxes",
    rules: dots,
    sides: ["X", "O"],
    where: lineWords,
    said: (side, move) => `${side} drew ${lineWords(move)}.`,
    createView: createDotsView,
  },
};

const $ = (id) => document.getElementById(id);

/** Returns what a move did, as the replay says it: "X played at row 2, column 2." */
function saidBy(game) {
  return game.said ?? ((side, move) => `${side} played ${game.where(move)}.`);
}
const relay = relayBeside(location.href);
const match = new URLSearchParams(location.hash.replace(/^#/, "")).get("match");

async function main() {
  if (match === null) {
    $("status").textContent = "No match to replay: the link names none (replay.html#match=ID).";
    return;
  }
  const answer = await fetch(`${relay}/v1/matches/${encodeURIComponent(match)}/record`);
  if (!answer.ok) {
    const body = await answer.json().catch(() => null);
    $("status").textContent = body?.error?.message ?? `The relay answered ${answer.status}.`;
    return;
  }
  const { header, events } = parseRecord(await answer.text());
  const game = GAMES[header.game];
  if (game === undefined) {
    $("status").textContent = `This page cannot show a game of ${JSON.stringify(header.game)}.`;
    return;
  }
  document.title = `Replay: ${game.title} · movewire`;
  $("title").textContent = `Replay: ${game.title}`;
  document.body.classList.add(header.game);
  const replay = new Replay(game.rules);
  replay.add(events);
  const board = $("board");
  const view = game.createView(board, { onPlay: () => {} });
  const said = saidBy(game);
  board.hidden = false;
  let at = replay.moves;
  let ended = resultWords(header, game.sides);
  let last = events.length ? events[events.length - 1].seq : 0;

  function show() {
    const position = replay.positions[at];
    view.update({ board: position.board, last: position.last, enabled: false }, { animate: null });
    const side = at === 0 ? null : game.sides[sideOf(position.event.seat, header.first)];
    $("position").textContent =
      at === 0
        ? `Start: ${replay.moves} moves in all.`
        : `Move ${at} of ${replay.moves}: ${said(side, position.last)}`;
    $("status").textContent = ended ?? "Still being played: new moves appear as they are made.";
    $("first").disabled = $("back").disabled = at === 0;
    $("forward").disabled = $("last").disabled = at === replay.moves;
  }

  function go(to) {
    at = Math.max(0, Math.min(replay.moves, to));
    show();
  }

  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(at - 1));
  $("forward").addEventListener("click", () => go(at + 1));
  $("last").addEventListener("click", () => go(replay.moves));
  document.addEventListener("keydown", (event) => {
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: replay.moves }[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    go(to);
  });
  show();

  // A live match: follow its log, as a spectator (no token).
  const notice = new ConnectionNotice(document.querySelector("main"));
  const client = new RelayClient({
    relay,
    timing: PAGE_TIMING,
    onReachable: (reachable) => {
      document.body.dataset.reachable = String(reachable);
      notice.reconnecting(!reachable);
    },
  });

  async function follow() {
    while (ended === null) {
      let found;
      try {
        found = await client.events(match, last, client.timing.pollWait);
      } catch (error) {
        if (error instanceof RelayRefusedError && error.code === "match/unknown") {
          ended = FORGOTTEN;
          show();
        } else if (error instanceof ConnectionLostError) {
          notice.lost(lostFor(), follow);
        } else {
          notice.lost(`The match could not be followed: ${error.message}`, follow);
        }
        return;
      }
      if (found.length === 0) continue;
      const atEnd = at === replay.moves;
      replay.add(found);
      last = found[found.length - 1].seq;
      const end = found.find((event) => event.type === "ended");
      if (end) {
        const result = { reason: end.reason, seat: end.seat };
        ended = resultWords({ result, first: header.first }, game.sides);
      }
      go(atEnd ? replay.moves : at);
    }
  }
  await follow();
}

main().catch((error) => {
  $("status").textContent = `The record could not be read: ${error.message}`;
});

// The replay page: replay.html#match=ID shows a finished or live match move by move (a
// takeback as a step back), with the players' names and, when the reader may read it, the
// chat. A live match is followed as a spectator, its table too (names, whether each player is
// here, the chat on a relay that shows it to everyone); while the relay does not answer, a
// notice says so and the page polls again from the last move it has. A finished match's record
// is kept (kept.mjs), so that its replay, opened once online, opens offline too, and says so.
// Each player who sat with a player key can be challenged from here (challenge-dialog.mjs).

import { ConnectionNotice, FORGOTTEN, PAGE_TIMING, lostFor } from "./connection.mjs";
import { challengeRow } from "./challenge-dialog.mjs";
import { ChatPanel, speaker } from "./chat-panel.mjs";
import { readGames, readRecord } from "./kept.mjs";
import { OfflineLine, isOffline, registerWorker } from "./offline.mjs";
import { ConnectionLostError, RelayRefusedError } from "./errors.mjs";
import { nameElement, shownName } from "./names.mjs";
import { relayBeside } from "./page-links.mjs";
import { RelayClient } from "./relay-client.mjs";
import { Replay, parseRecord, resultWords, sideOf } from "./replay.mjs";
import { TableKeeper } from "./table.mjs";
import { BACK_SHOWN_MS, presenceWords } from "./table-panel.mjs";

/**
 * Returns the GAME of a game key, as its package's view module exports it (the page kit's
 * description: title, rules, sides, where, said, createView), or null when the relay hosts no
 * such game or its package has no view. The relay names the module in GET /v1/games.
 */
async function gameOf(relay, key) {
  const games = await readGames(relay);
  const found = games.find((game) => game.name === key);
  if (found === undefined || found.view === null) return null;
  const { GAME } = await import(new URL(found.view, `${relay}/`).href);
  return GAME;
}

const $ = (id) => document.getElementById(id);

/** Returns what a move did, as the replay says it: "X played at row 2, column 2." */
function saidBy(game) {
  if (game.said) return (side, move) => game.said(side, null, move);
  return (side, move) => `${side} played ${game.where(move)}.`;
}

/** Returns what a takeback did: "0 took back a move." */
function undoWords(side, count) {
  return `${side} took back ${count === 1 ? "a move" : `${count} moves`}.`;
}

/**
 * Shows both players, the first mover first: "X: Ann" and, in a live match, whether each is
 * here ("Ann disconnected: 27 s to come back"), as text. Returns a function that redraws it
 * from the names and presence known, and tells screen readers when a player goes or comes back.
 */
function playersLine(element, spoken, sides, first) {
  const away = [false, false];
  const back = [null, null];
  return (names, presence, now = performance.now()) => {
    const parts = [];
    for (const seat of [first, 1 - first]) {
      const side = sides[sideOf(seat, first)];
      const name = names?.[seat] ?? null;
      const here = presence?.[seat] ?? null;
      const gone = here !== null && !here.here;
      if (away[seat] && !gone) back[seat] = now;
      if (away[seat] !== gone) spoken.textContent = `${name ?? side} ${gone ? "disconnected" : "is back"}.`;
      away[seat] = gone;
      const badge = presenceWords(here, null, now, back[seat]);
      // A nameless player by the pages' neutral word; a long name cut, whole in its title.
      // Each side is one item of the line's flex box, so its words keep their spaces.
      const player = document.createElement("span");
      player.append(`${side}: `, nameElement(document, name), badge ? ` (${badge})` : "");
      if (parts.length > 0) parts.push(" · ");
      parts.push(player);
    }
    element.replaceChildren(...parts);
    element.hidden = !names?.some((name) => name !== null) && !away.some(Boolean);
    return away.some(Boolean) || back.some((at) => at !== null && now - at < BACK_SHOWN_MS);
  };
}
const relay = relayBeside(location.href);
const match = new URLSearchParams(location.hash.replace(/^#/, "")).get("match");
registerWorker();
/** When the record shown was kept (ms), when it was read offline; else null. */
let keptAt = null;
const offline = new OfflineLine(document.querySelector("main"), () =>
  keptAt === null
    ? "You are offline: a replay opens here once it was opened online."
    : "You are offline: this replay was kept from an earlier visit.",
);

async function main() {
  if (match === null) {
    $("status").textContent = "No match to replay: the link names none (replay.html#match=ID).";
    return;
  }
  const read = await readRecord(relay, match);
  if ("refused" in read) {
    $("status").textContent = read.refused;
    return;
  }
  keptAt = read.keptAt ?? null;
  offline.update();
  const { header, events, chat: talk } = parseRecord(read.text);
  const game = await gameOf(relay, header.game);
  if (game === null) {
    $("status").textContent = `This page cannot show a game of ${JSON.stringify(header.game)}.`;
    return;
  }
  if (game.stylesheet) {
    // The game's board is drawn with its package's own stylesheet.
    const sheet = Object.assign(document.createElement("link"), { rel: "stylesheet", href: game.stylesheet });
    const loaded = new Promise((resolve) => sheet.addEventListener("load", resolve, { once: true }));
    sheet.addEventListener("error", () => {}, { once: true });
    document.head.append(sheet);
    await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 2000))]);
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
  // How it ended: who won (by side and name) and how; an agreed end's winner from its claim.
  let ended = resultWords(header, game.sides, shownName, replay);
  let last = events.length ? events[events.length - 1].seq : 0;
  const players = playersLine($("players"), $("presence-spoken"), game.sides, header.first);
  const names = Array.isArray(header.names) && header.names.some((name) => name !== null) ? header.names : null;
  players(names, null);
  challengeRow($("challenge-players"), new RelayClient({ relay, timing: PAGE_TIMING }), match);
  const chat = new ChatPanel($("chat"));
  const sideWords = [0, 1].map((seat) => game.sides[sideOf(seat, header.first)]);
  const who = (line) => speaker(line, null, names, sideWords);
  chat.show(talk, who);
  chat.hidden = talk.length === 0;

  function show() {
    const position = replay.positions[at];
    view.update({ board: position.board, last: position.last, enabled: false }, { animate: null });
    if (at === 0) {
      $("position").textContent = `Start: ${replay.moves} moves in all.`;
    } else {
      const { event } = position;
      const side = game.sides[sideOf(event.seat, header.first)];
      const step = event.type === "undo" ? undoWords(side, event.count) : said(side, position.last);
      $("position").textContent = `Move ${at} of ${replay.moves}: ${step}`;
    }
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

  // The table of a live match: the players' names and presence, and the chat when the relay
  // lets spectators read it (--chat all); its countdowns tick while someone is away.
  const keeper = new TableKeeper();
  let ticking = null;
  function showTable() {
    const table = keeper.current;
    if (table === null) return;
    const counting = players(table.names, ended === null ? table.presence : null);
    if (counting && ticking === null) ticking = setInterval(showTable, 500);
    if (!counting && ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
    if (table.chat.length > 0) {
      chat.show(table.chat, (line) => speaker(line, null, table.names, sideWords));
      chat.hidden = false;
    }
  }

  async function follow() {
    while (ended === null) {
      let found;
      try {
        const at = { table: keeper.version, chat: keeper.chatSeen };
        const read = await client.poll(match, last, client.timing.pollWait, undefined, at);
        found = read.events;
        if (read.table !== null && keeper.take(read.table) !== null) showTable();
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
        const { reason, seat, detail, winner, refereed } = end;
        const result = { reason, seat, detail, winner, refereed };
        const named = { result, first: header.first, names: keeper.current?.names ?? header.names };
        ended = resultWords(named, game.sides, shownName, replay);
        showTable(); // nobody is away from a match over
      }
      go(atEnd ? replay.moves : at);
    }
  }
  await follow();
}

main().catch((error) => {
  $("status").textContent = isOffline()
    ? "This match's record was not kept here: open its replay once online."
    : `The record could not be read: ${error.message}`;
});

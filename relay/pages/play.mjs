// The game page: seeks or resumes a match, and drives the status line, buttons and board.
//
// The match id and seat token live in sessionStorage, so reloading the tab resumes the
// same match (the board rebuilt from the log) and a second tab is a second player.
// A private room is named in the page's fragment (#room=NAME): the fragment never reaches
// a server log or a Referer header, and opening the link joins the room. While the relay does
// not answer, the status line says so and every request is sent again (connection.mjs).
// Around the board: the table (table-panel.mjs), the chat (chat-panel.mjs), Mute, Block and
// Report (moderation-panel.mjs). A seek or a rematch refused by the host's ban says so in the
// relay's words, once. Its parts: play-elements.mjs, play-words.mjs, play-computer.mjs.
import { BoardGame } from "./board-game.mjs";
import { ChatPanel, speaker } from "./chat-panel.mjs";
import { LEVEL_NAMES } from "./computer.mjs";
import { seatComputer } from "./play-computer.mjs";
import { cleanChoice, loadChoice, saveChoice } from "./computer-choice.mjs";
import { ClockView, choiceOf, chosenControl } from "./clock-view.mjs";
import { FORGOTTEN, PAGE_TIMING, RECONNECTING, SENDING_OFFLINE } from "./connection.mjs";
import { endedHost, finishedGame, finishedRecord, isShownFinished } from "./finished.mjs";
import { HintLine, whyNot } from "./move-hints.mjs";
import { BANNED, ModerationPanel, bannedNotice, bannedWords } from "./moderation-panel.mjs";
import { asOpponent, opponentOf, resignedWords } from "./opponent-words.mjs";
import { ensurePlayerKey, playerKey } from "./players.mjs";
import { Reason, RelayClient, RelayHost, State, Timing } from "./movewire.mjs";
import { nameField } from "./names.mjs";
import { fillPage } from "./page-shell.mjs";
import { byId, pageElements } from "./play-elements.mjs";
import { LOST, NO_PLAYER_KEY, REFUSALS, STATUS, THINKING } from "./play-words.mjs";
import { RematchWatch, rematchView } from "./rematch.mjs";
import { TablePanel } from "./table-panel.mjs";
import { TurnAlert } from "./turn-alert.mjs";
import { afterLeaving, leaveSeeks } from "./waiting-room.mjs";
import { loadSaved, newRoomName, parseFragment, relayBeside, roomFragment, save, shouldResume } from "./page-links.mjs";

export { LOST, NO_PLAYER_KEY, REFUSALS, STATUS, THINKING } from "./play-words.mjs";
// What the page tests (tests/js/page.test.mjs) and the game pages read of the page's links.
export { computerKey, newRoomName, parseFragment, relayBeside, ROOM_NAME, roomFragment } from "./page-links.mjs";
export { shouldResume, storageKey } from "./page-links.mjs";

/**
 * Runs a game page.
 * @param {object} page
 * @param {string} page.key the game key, e.g. "xand0"
 * @param {string} page.version the version of its move strings
 * @param {string} page.title the game's name, for the window title
 * @param {object} page.rules the rules module (Board, parseMove, formatMove)
 * @param {string[]} page.sides the name of each side, e.g. ["X", "O"]
 * @param {(move: unknown) => string} page.where words for where a move went
 * @param {(who: string, side: number, move: unknown) => string} [page.said] the last move's
 *   words ("You drew ..."); by default "You played X at row 2, column 3."
 * @param {string} page.taken what a click on a move that is not legal is told
 * @param {(element: HTMLElement, actions: {onPlay: (move: unknown) => void}) => {update: Function}} page.createView
 */
export function runPage(page) {
  fillPage(document);
  const el = pageElements(document);

  let rematch = null; // follows the rematch of the match just finished
  let rematchSaid = null; // why an offer or answer of the rematch was refused, until it changes
  let host = null;
  let game = null;
  let notice = null;
  let room = null;
  let saved = null;
  let level = null; // the computer's level when playing the computer, else null
  let computer = null;
  let thinking = false;
  let clockChoice = ""; // the clock sought, as CLOCK_CHOICES names it ("" for none)
  let seeking = null; // how the current match was sought, to seek the same on Retry
  let lost = false; // the connection was given up: Retry takes the match up again
  let forgotten = false; // the relay no longer knows the match
  let quiet = false; // a match taken up again (a reload): its first turn is not news
  const clockView = new ClockView(el.clocks, page.sides);
  // The page's own calls (a seek's withdrawal) are brief: when they fail, the host takes over.
  const client = new RelayClient({ relay: relayBeside(location.href), timing: new Timing({ giveUp: 3 }) });
  const turnAlert = new TurnAlert({ title: page.title, onChange: () => render() });
  const hints = new HintLine(el.hint);
  const opponent = () => opponentOf(level !== null);
  const myName = nameField(byId(document, "player-name"));
  const table = TablePanel.inPage(document, {
    host: () => host,
    game: () => game,
    opponent,
    againstComputer: () => level !== null,
  });
  const chat = new ChatPanel(byId(document, "chat"), (text) => host.say(text));
  const moderation = ModerationPanel.inPage(document, {
    client,
    host: () => host,
    game: () => game,
    againstComputer: () => level !== null,
    changed: () => render(),
  });

  /** Plays a move chosen on the board, or says why it cannot be played. */
  function choose(move) {
    if (game === null) return;
    if (game.play(move)) hints.clear();
    else hints.show(whyNot(game, page.taken ?? "That move is not possible."));
  }

  const boardView = page.createView(el.board, { onPlay: choose, opponent: () => opponent().label });
  const view = {
    update(g, change) {
      boardView.update(g, change);
      showLastMove(g);
    },
  };

  function showLastMove(g) {
    if (g.last === null) {
      el.last.textContent = "";
      return;
    }
    const mover = g.lastBy ?? 1 - g.board.turn;
    const who = mover === g.side ? "You" : opponent().who;
    el.last.textContent = page.said
      ? page.said(who, mover, g.last)
      : `${who} played ${page.sides[mover]} ${page.where(g.last)}.`;
  }

  function endText() {
    const outcome = host?.outcome ?? null;
    if (outcome?.reason === Reason.RESIGNED && outcome.byMe) {
      return resignedWords(level !== null);
    }
    return notice ?? game?.resultText ?? null;
  }

  function render() {
    const state = host === null ? State.NOT_CONNECTED : host.state;
    let text = STATUS[state];
    if (state === State.GAME_ENDED) text = endText() ?? text;
    else if (state === State.NOT_CONNECTED && notice !== null) text = notice;
    if (state === State.PLAYING_WAIT_MOVE && thinking) text = THINKING;
    const away = host !== null && !host.reachable && !lost;
    if (away && state !== State.GAME_ENDED && state !== State.NOT_CONNECTED) {
      text = state === State.WAITING_SERVER_RESPONSE ? SENDING_OFFLINE : RECONNECTING;
    }
    if (host === null) text = notice ?? "Choose how to play.";
    el.status.textContent = text;
    clockView.opponent = opponent().label;
    clockView.update(host, game?.side ?? 0);
    document.body.dataset.state = host === null ? "IDLE" : Object.keys(State)[state];
    document.body.dataset.thinking = String(thinking);
    document.body.dataset.reachable = String(host?.reachable ?? true);
    const turn = state === State.PLAYING_TO_MOVE ? "Your turn · " : "";
    document.title = turnAlert.title(`${turn}${page.title} · movewire`);
    el.sound.checked = turnAlert.sound;
    el.notify.hidden = !turnAlert.canAsk;

    const started = game !== null;
    const over = state === State.GAME_ENDED || state === State.NOT_CONNECTED;
    el.start.hidden = host !== null;
    el.share.hidden = !(state === State.LISTENING && room !== null && level === null);
    el.cancel.hidden = !(state === State.LISTENING && host?.ticket !== null);
    el.resign.hidden = !started || over;
    el.again.hidden = host === null || !over || lost || level !== null;
    el.computerAgain.hidden = host === null || !over || lost || level === null;
    el.retry.hidden = !lost;
    el.toLobby.hidden = !forgotten;
    el.board.hidden = !started;
    el.rematch.hidden = rematch === null || !over;
    if (rematch !== null) {
      const shown = rematchView(rematch.current, rematch.seat);
      el.rematchStatus.textContent = rematchSaid ?? shown.text;
      el.rematchOffer.hidden = !shown.offer;
      el.rematchAccept.hidden = !shown.accept;
      el.rematchDecline.hidden = !shown.decline;
    }
    // Once a match is over, the same opponent again is the main choice; a stranger the lesser.
    el.again.classList.toggle("primary", el.rematch.hidden);
    const against = level === null ? "" : ` against the computer (${LEVEL_NAMES[level]})`;
    el.you.textContent = started
      ? `You play ${page.sides[game.side]}${against}${game.side === 0 ? ", moving first" : ""}.`
      : "";
    if (room !== null) {
      const link = new URL(location.href);
      link.hash = roomFragment(room, clockChoice);
      el.shareLink.value = link.href;
    }
    table.update();
    moderation.update();
    // The chat is between two people (none against the computer); once the match is over
    // its field closes, and it shows only if something was said.
    const lines = host?.table?.chat ?? [];
    chat.hidden = !started || level !== null || (over && lines.length === 0);
    const seat = host?.ticket?.seat ?? null;
    const names = host?.table?.names ?? null;
    const said = (line) => speaker(line, seat, names, [opponent().label, opponent().label]);
    chat.show(lines, said, started && !over && typeof host?.say === "function", moderation.hiding);
  }

  /** Takes up a match of this browser's player key, the key the seat's bearer. */
  function resumeMine(want) {
    const key = playerKey();
    if (key === null) {
      notice = NO_PLAYER_KEY;
      render();
      return;
    }
    saved = { match: want.match, seat: want.seat, token: key, room: null, finished: false, level: null, correspondence: true };
    save(page.key, saved);
    history.replaceState(null, "", location.pathname + location.search);
    play(null, saved);
  }

  /** Takes a saved match up again, with the choices it was sought with. */
  function resume(from) {
    quiet = true; // its turn, if it is one, is not news
    play(from.room ?? null, from, from.level ?? null, from.listed === true, from.clock ?? "");
  }

  /** Comes back to a seek withdrawn as the page was left: plays it, or seeks the same again. */
  async function rejoin(left) {
    el.status.textContent = STATUS[State.LISTENING];
    if ((await afterLeaving(client, left)) === "resume") {
      save(page.key, (saved = { ...left, withdrawn: false }));
      resume(saved);
      return;
    }
    save(page.key, (saved = null));
    // Against the computer, a new room: the computer takes the other seat afresh.
    const roomName = left.level ? newRoomName() : (left.room ?? null);
    play(roomName, null, left.level ?? null, left.listed === true, left.clock ?? "");
  }

  /** Withdraws the seek of a page being left (pagehide); a reload comes back to it (rejoin). */
  function leave() {
    const ticket = host?.ticket ?? null;
    if (host?.state !== State.LISTENING || ticket === null || saved?.match !== ticket.match) return;
    // A correspondence seek waits for days, listed under "Your games": it outlives the page.
    if (saved.correspondence) return;
    const seats = [ticket];
    if (computer?.host.state === State.LISTENING && computer.host.ticket !== null) seats.push(computer.host.ticket);
    leaveSeeks(client, seats);
    save(page.key, (saved = { ...saved, withdrawn: true }));
  }

  function play(roomName, resumeFrom = null, computerLevel = null, listed = false, clock = "") {
    rematch?.close();
    rematch = null;
    rematchSaid = null;
    host?.close();
    table.reset();
    chat.clear();
    moderation.reset();
    computer?.close();
    computer = null;
    thinking = false;
    level = computerLevel;
    notice = null;
    lost = false;
    forgotten = false;
    game = null;
    room = roomName;
    // The computer plays with a Fischer clock or none (it keeps no seat for days).
    const fischer = chosenControl(clock)?.kind === "fischer";
    clockChoice = computerLevel === null || fischer ? clock : "";
    seeking = { roomName, computerLevel, listed, clock };
    const correspondence = chosenControl(clockChoice)?.kind === "deadline";
    // A random opponent may be sought rated, and near this player's rating (docs/ratings.md).
    const near = roomName === null && computerLevel === null ? (el.near?.value ?? "") : "";
    const within = near === "" || near === "any" ? 0 : Number(near);
    const options = {
      relay: relayBeside(location.href),
      gameKey: page.key,
      version: page.version,
      room: roomName,
      public: listed,
      timeControl: chosenControl(clockChoice),
      timing: PAGE_TIMING,
      // A rated or correspondence seat is listed under this browser's player key ("Your games"):
      // a rating belongs to a key. A casual one has none, so that two tabs of one browser can
      // play each other (the relay never pairs a key with itself).
      player: computerLevel === null && (near !== "" || correspondence) ? ensurePlayerKey() : null,
      ratingRange: Number.isInteger(within) && within > 0 ? { within } : null,
      name: myName(),
      onTable: () => {
        if (host === current) render();
      },
      createGame: (h, firstMove) => {
        game = new BoardGame(h, firstMove, page.rules, view);
        return game;
      },
      onState: (state) => {
        if (host === current) {
          if (state === State.PLAYING_TO_MOVE && !quiet) turnAlert.yourTurn();
          // The log read on taking the match up is handled at once (a partner's move not yet
          // answered among it): turns from then on are news.
          if (state !== State.LISTENING && quiet) setTimeout(() => (quiet = false), 0);
        }
        render();
      },
      onReachable: () => render(),
      onDialog: (text) => {
        const refused = /\b(\w+\/\w+)\b/.exec(text)?.[1];
        // A match the relay forgot before its end: the relay restarted (or lost its store).
        forgotten = refused === "match/unknown" && saved?.finished !== true;
        // A ban of the host's: how long and why, as the relay says (the seek is not sent again).
        const banned = refused === BANNED ? bannedNotice(text) : null;
        notice = forgotten ? FORGOTTEN : (banned ?? REFUSALS[refused] ?? asOpponent(text, level !== null));
        render();
      },
      onTicket: (ticket) => {
        const kept = { room: roomName, finished: false, level: computerLevel, listed, clock: clockChoice };
        saved = { ...ticket, ...kept, correspondence };
        save(page.key, saved);
        if (roomName === null && location.hash !== "") {
          // A reload must resume this match, not seek another.
          history.replaceState(null, "", location.pathname + location.search);
        }
        render(); // the seek is saved: Cancel can withdraw it now
      },
    };
    const current = resumeFrom === null ? new RelayHost(options) : RelayHost.resume(resumeFrom, options);
    host = current;
    if (computerLevel !== null) {
      const onThinking = (now) => {
        thinking = now;
        render();
      };
      const control = chosenControl(clockChoice);
      computer = seatComputer(page, roomName, computerLevel, resumeFrom !== null, control, onThinking);
    }
    render();
    current.play().then(
      (outcome) => finish(current, outcome),
      (error) => {
        // The game's own code failed (an illegal move from the partner, say).
        current.close();
        notice = `This game cannot go on: ${error.message}`;
        render();
      },
    );
  }

  function finish(current, outcome) {
    if (current !== host || outcome === null) return;
    if (outcome.isFinished) {
      // A reload then shows this end, and nothing is seated again.
      if (saved !== null) save(page.key, (saved = { ...saved, ...finishedRecord(game, endText()) }));
    } else if (outcome.reason !== Reason.CONNECTION_LOST) {
      // Cancelled or refused: the seat is of no more use (a lost connection may come back).
      save(page.key, (saved = null));
    }
    if (outcome.reason === Reason.CONNECTION_LOST) {
      // Given up after minutes of retries: the seat is kept, and Retry takes it up again.
      lost = true;
      notice = LOST(saved !== null);
    }
    if (outcome.isFinished && level === null && current.ticket !== null) followRematch(current.ticket);
    if (outcome.reason === Reason.CANCELLED && !outcome.message) {
      host = null;
      room = null;
      history.replaceState(null, "", location.pathname + location.search);
    }
    render();
  }

  function followRematch(ticket) {
    const watch = new RematchWatch({
      relay: relayBeside(location.href),
      timing: PAGE_TIMING,
      ticket,
      onChange: (found) => {
        if (watch !== rematch) return;
        rematchSaid = null;
        if (found.state === "accepted") {
          // The same seat and token in the new match: no new seek, the first move swapped.
          saved = { ...watch.ticketIn(found), room: null, finished: false, level: null };
          save(page.key, saved);
          play(null, saved);
          el.status.focus?.();
          return;
        }
        render();
      },
    });
    rematch = watch;
    watch.follow();
  }

  function answerRematch(offer) {
    const watch = rematch;
    if (watch === null) return;
    rematchSaid = null;
    (offer ? watch.offer() : watch.decline()).catch((error) => {
      if (watch !== rematch) return;
      // A ban of the host's is told in the relay's words: how long and why.
      const why = error?.code === BANNED ? bannedWords(error.detail) : error.message;
      rematchSaid = `No rematch: ${why}`;
      render();
    });
  }

  el.rematchOffer.addEventListener("click", () => answerRematch(true));
  el.rematchAccept.addEventListener("click", () => answerRematch(true));
  el.rematchDecline.addEventListener("click", () => answerRematch(false));
  el.random.addEventListener("click", () => play(null, null, null, false, el.timeControl.value));
  el.private.addEventListener("click", () => {
    const name = newRoomName();
    history.replaceState(null, "", `#${roomFragment(name, el.timeControl.value)}`);
    play(name, null, null, false, el.timeControl.value);
  });
  el.again.addEventListener("click", () => {
    save(page.key, (saved = null));
    // A match resumed after a reload knows its control only from the relay: seek the same.
    play(room, null, level, false, clockChoice || choiceOf(host?.clock?.control ?? null));
    el.status.focus?.();
  });
  el.computer?.addEventListener("click", () => {
    saveChoice({ level: el.level.value, clock: el.timeControl.value });
    play(newRoomName(), null, el.level.value, false, el.timeControl.value);
  });
  el.againComputer.addEventListener("click", () => {
    const choice = saveChoice({ level: el.againLevel.value, clock: loadChoice().clock });
    save(page.key, (saved = null));
    play(newRoomName(), null, choice.level, false, choice.clock);
    el.status.focus?.();
  });
  el.retry.addEventListener("click", () => {
    if (saved !== null) resume(saved);
    else play(seeking.roomName, null, seeking.computerLevel, seeking.listed, seeking.clock);
    el.status.focus?.();
  });
  el.sound.addEventListener("change", () => {
    turnAlert.sound = el.sound.checked; // this click lets the page make sound
  });
  el.notify.addEventListener("click", () => turnAlert.ask());
  window.addEventListener("pagehide", leave);
  // Back from the browser's page cache after the seek was withdrawn: come back to it afresh.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && saved?.withdrawn) location.reload();
  });
  el.cancel.addEventListener("click", () => {
    // A partner may have come meanwhile: then the match simply goes on.
    if (host?.state === State.LISTENING) {
      host.cancel();
      computer?.host.cancel();
    }
  });
  el.resign.addEventListener("click", () => {
    el.confirm.querySelector("p").textContent = `Resign this game? ${opponent().name} wins.`;
    el.confirm.showModal();
  });
  el.confirm.addEventListener("close", () => {
    if (el.confirm.returnValue === "resign" && host?.outcome === null) host.resign();
  });
  el.copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(el.shareLink.value);
      el.copy.textContent = "Copied";
    } catch {
      el.shareLink.select();
      el.copy.textContent = "Press Ctrl+C to copy";
    }
  });
  // Opening another room's link in this tab changes only the fragment: start afresh.
  window.addEventListener("hashchange", () => location.reload());

  if (el.level !== null) el.level.value = loadChoice().level;
  el.againLevel.value = loadChoice().level;

  /** Shows a finished match kept by the tab: its end, its final board, the ways to play on. */
  function showFinished(kept) {
    level = kept.level ?? null;
    room = kept.room ?? null;
    host = endedHost(kept);
    game = finishedGame(kept, host, page.rules, view);
    notice = kept.ended;
    if (level === null) followRematch(host.ticket);
    render();
  }

  moderation.load(); // whose chat this browser's player key hides: read once, as the page starts
  const want = parseFragment(location.hash);
  saved = loadSaved(page.key);
  if (shouldResume(saved, want) && isShownFinished(saved)) {
    showFinished(saved);
  } else if (shouldResume(saved, want)) {
    if (saved.withdrawn) rejoin(saved);
    else resume(saved);
  } else {
    save(page.key, (saved = null));
    if (want.kind === "room") play(want.room, null, null, want.listed === true, want.clock);
    else if (want.kind === "resume") resumeMine(want);
    else if (want.kind === "play") {
      if (el.near !== null && want.within !== null) el.near.value = String(want.within);
      else if (el.near !== null && want.rated) el.near.value = "any";
      play(null, null, null, false, el.timeControl.value);
    }
    else if (want.kind === "computer" && el.computer) {
      // From the lobby's "Play the computer": a reload then resumes this match.
      history.replaceState(null, "", location.pathname + location.search);
      const choice = saveChoice(cleanChoice({ level: want.level ?? el.level.value, clock: want.clock ?? "" }));
      el.level.value = choice.level;
      play(newRoomName(), null, choice.level, false, choice.clock);
    } else render();
  }
}

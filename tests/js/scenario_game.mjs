// The scenario corpus's game for the JavaScript host: it plays a scenario's `game` script and
// records every call its host makes, as tests/sdk/scenario_game.py does for the Python host.

import { Game, MoveRejected, State, STATE_NAMES } from "../../relay/pages/movewire.mjs";

/** A scripted "move" that passes the turn by choice. */
export const PASS = "<pass>";
/** A scripted "move" that resigns instead. */
export const RESIGN = "<resign>";
/** A scripted "move" that asks a takeback, then plays the next move once the relay has it. */
export const TAKEBACK = "<takeback>";
/** A scripted "move" that leaves the turn to the player: nothing is played on this enable(). */
export const WAIT = "<wait>";

/** What a host did in a scenario: its game's calls and dialogs, and its states, in order. */
export class Recorder {
  constructor() {
    /** @type {string[][]} [name, argument ("" for none), the host's state name] */
    this.calls = [];
    /** @type {string[]} */
    this.states = [];
    this.host = null;
  }

  record(name, argument = "") {
    const state = this.host === null ? State.NOT_CONNECTED : this.host.state;
    this.calls.push([name, argument, STATE_NAMES[state]]);
  }

  state(state) {
    this.states.push(STATE_NAMES[state]);
  }

  dialog(text) {
    this.record("show_dialog", text);
  }
}

/** Plays the moves of a scenario's `game` script, one per enable(), and records its calls. */
export class ScenarioGame extends Game {
  constructor(host, firstMove, script, rec) {
    super(host, firstMove);
    this.script = script;
    this.moves = [...(script.moves ?? [])];
    this.rec = rec;
    rec.record("created", String(firstMove));
  }

  enable() {
    this.rec.record("enable");
    const move = this.moves.shift();
    if (move === undefined || move === WAIT) return;
    if (move === RESIGN) this.host.resign();
    else if (move === TAKEBACK) {
      // A player who asks, then moves without waiting for the answer.
      this.host.askTakeback().then(() => {
        const next = this.moves.shift();
        this.host.move(next, next.endsWith("!"));
      });
    }
    else if (move === PASS) this.host.passTurn();
    else this.host.move(move, move.endsWith("!"));
  }

  disable() {
    this.rec.record("disable");
  }

  receiveMove(move) {
    this.rec.record("receive_move", move);
    const reason = this.script.reject?.[move];
    if (reason !== undefined) throw new MoveRejected(reason);
    return State[this.script.answers?.[move] ?? "PLAYING_TO_MOVE"];
  }

  receivePass() {
    this.rec.record("receive_pass");
    return State.PLAYING_TO_MOVE;
  }

  result() {
    this.rec.record("result");
    return this.script.result ?? null;
  }

  undo(count) {
    this.rec.record("undo", String(count));
  }

  considerOffer(offer) {
    this.rec.record("consider_offer", offer.kind);
    return this.script.offers ?? null;
  }
}

// The JavaScript host against a relay that referees Connect Four (issue 26), run by
// tests/js/test_node_refereed.py with MOVEWIRE_REFEREED_RELAY: a forged win is illegal and
// lost by the forger, a real win is over at once (the loser's late confirm no error), and a
// rejected illegal move is lost by its player, each with the words of endings.mjs.

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import { Game, MoveRejected, Reason, RelayHost, Result, State, Timing } from "../../relay/pages/movewire.mjs";

const RELAY = process.env.MOVEWIRE_REFEREED_RELAY;
const TIMING = new Timing({ pollWait: 1, requestTimeout: 5, backoffBase: 0.01, backoffCap: 0.2, giveUp: 10 });

/** Plays its moves in turn (the last with `end` when told) and answers as told. */
class Scripted extends Game {
  constructor(host, firstMove, moves, end, answer) {
    super(host, firstMove);
    Object.assign(this, { moves: [...moves], end, answer, won: false });
  }

  enable() {
    const move = this.moves.shift();
    this.won = this.moves.length === 0 && this.end;
    this.host.move(move, this.won);
  }

  disable() {}

  receiveMove(move) {
    return this.answer(move);
  }

  result() {
    return this.won ? Result.WON : null;
  }
}

/** Resolves [first mover's outcome, the other's, their dialogs]. */
async function match(first, second, end, answer) {
  const room = `refereed-${randomUUID()}`;
  const dialogs = [[], []];
  const hosts = [0, 1].map(
    (index) =>
      new RelayHost({
        relay: RELAY,
        gameKey: "connect4",
        room,
        timing: TIMING,
        onDialog: (text) => dialogs[index].push(text),
        createGame: (host, firstMove) =>
          firstMove
            ? new Scripted(host, true, first, end, () => State.PLAYING_TO_MOVE)
            : new Scripted(host, false, second, false, answer),
      }),
  );
  const outcomes = await Promise.all(hosts.map((host) => host.play()));
  const order = hosts[0].game.firstMove ? [0, 1] : [1, 0];
  return [outcomes[order[0]], outcomes[order[1]], dialogs[order[0]], dialogs[order[1]]];
}

describe("the JavaScript host and a refereeing relay", { skip: !RELAY }, () => {
  test("a forged win is illegal and lost by the forger", async () => {
    const [forger, partner, said, told] = await match(["3"], [], true, () => State.PLAYING_TO_MOVE);
    assert.deepEqual([forger.result, forger.reason, forger.at, forger.detail], [Result.LOST, Reason.ILLEGAL, 2, "the game is not over"]);
    assert.deepEqual(said, ["The referee found your move 1 illegal: the game is not over. You lose."]);
    assert.deepEqual([partner.result, partner.reason, partner.winner], [Result.WON, Reason.ILLEGAL, partner.seat]);
    assert.deepEqual(told, ["The referee found your partner's move 1 illegal: the game is not over. You win."]);
  });

  test("a real win is over at once, and the loser's late confirm is no error", async () => {
    const answers = [State.PLAYING_TO_MOVE, State.PLAYING_TO_MOVE, State.PLAYING_TO_MOVE, State.GAME_ENDED];
    const [winner, loser, said, told] = await match(["0", "0", "0", "0"], ["1", "1", "1"], true, () => answers.shift());
    assert.deepEqual([winner.result, winner.reason, winner.winner, winner.detail], [Result.WON, Reason.OVER, winner.seat, "four in a row"]);
    assert.deepEqual(said, ["You win: four in a row."]); // the game knew who won; the referee says how
    assert.deepEqual([loser.result, loser.reason], [Result.LOST, Reason.OVER]);
    assert.deepEqual(told, ["The referee found the game over at move 7: four in a row. You lose."]);
  });

  test("a rejected illegal move is lost by its player", async () => {
    const reject = (move) => {
      throw new MoveRejected(`there is no column ${move}`);
    };
    const [mover, rejecter, said, told] = await match(["9"], [], false, reject);
    assert.deepEqual([mover.result, mover.reason], [Result.LOST, Reason.ILLEGAL]);
    assert.deepEqual([rejecter.result, rejecter.reason], [Result.WON, Reason.ILLEGAL]);
    assert.equal(told[0], "Your game rejected your partner's move 1: there is no column 9. Disputed.");
    assert.match(told.at(-1), /^The referee found your partner's move 1 illegal: /);
    assert.match(said.at(-1), /^The referee found your move 1 illegal: /);
  });
});

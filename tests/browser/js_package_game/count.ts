// Count to ten, a game page built with Vite on the `movewire` package: say the next number
// on your turn; whoever says 10 wins. Typed by the package's own declarations.
import {
  Game,
  MoveRejected,
  RelayHost,
  Result,
  State,
  STATE_NAMES,
  type GameHost,
  type Outcome,
  type ResultValue,
  type StateValue,
} from "movewire";
import "movewire/style.css"; // the relay's look: its colours, light and dark

const status = document.querySelector<HTMLElement>("#status")!;
const say = document.querySelector<HTMLButtonElement>("#say")!;

class CountToTen extends Game {
  count = 0;
  mine = false; // whether this side said the last number

  constructor(host: GameHost, firstMove: boolean) {
    super(host, firstMove);
  }

  enable(): void {
    say.textContent = `Say ${this.count + 1}`;
    say.disabled = false;
  }

  disable(): void {
    say.disabled = true;
  }

  receiveMove(move: string): StateValue {
    if (move !== String(this.count + 1)) throw new MoveRejected(`${move} does not follow ${this.count}`);
    this.count += 1;
    this.mine = false;
    return this.count === 10 ? State.GAME_ENDED : State.PLAYING_TO_MOVE;
  }

  result(): ResultValue | null {
    if (this.count < 10) return null;
    return this.mine ? Result.WON : Result.LOST;
  }

  /** Says the next number, ending the game at 10. */
  sayNext(): void {
    this.count += 1;
    this.mine = true;
    this.host.move(String(this.count), this.count === 10);
  }
}

const room = new URLSearchParams(location.hash.slice(1)).get("room");
let game: CountToTen | null = null;
const host = new RelayHost({
  gameKey: "count10",
  version: "1",
  room,
  createGame: (seated, firstMove) => (game = new CountToTen(seated, firstMove)),
  onState: (state: StateValue) => {
    document.body.dataset.state = STATE_NAMES[state];
    if (state === State.PLAYING_TO_MOVE) status.textContent = "Your turn.";
    else if (state === State.PLAYING_WAIT_MOVE) status.textContent = "Opponent's turn...";
  },
  onDialog: (text: string) => {
    status.textContent = text;
  },
});
say.addEventListener("click", () => game?.sayNext());
host.play().then((outcome: Outcome | null) => {
  document.body.dataset.result = outcome?.result ?? "closed";
  document.body.dataset.reason = outcome?.reason ?? "";
  status.textContent = outcome === null ? "Closed." : `You ${outcome.result} (${outcome.reason}).`;
});

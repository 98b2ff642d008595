// The page kit's contracts, typed (docs/javascript.md#the-page-kits-contracts): what a game's
// page modules give runPage() (play.mjs) and BoardGame (board-game.mjs). The relay serves the
// kit's modules beside a game's page folder; the package `movewire/page` holds these types
// only, for a game's modules checked with tsc. tests/js/test_page_kit.py holds the examples'
// and the skeleton's GAMEs to them, and the doc's lists to their fields.

/** A side of the board: 0 moves first, 1 second. */
export type Side = number;

/** How a finished position ended. A rules module may add fields of its own (its words, a line). */
export interface Outcome {
  /** The side that won, or null for a draw. */
  readonly winner: Side | null;
}

/** A position of the game. It is never changed: push() returns the next one. */
export interface Position<Move = any> {
  /** The side to move now (0 or 1). */
  readonly turn: Side;
  /** Returns the position after the side to move plays `move`; throws for an illegal move. */
  push(move: Move): Position<Move>;
  /** Returns how the game ended, or null while it goes on. */
  outcome(): Outcome | null;
}

/** The rules module a BoardGame, the replay page and runPage() use. */
export interface Rules<Move = any, Board extends Position<Move> = Position<Move>> {
  /** The position's class: `Board.empty()` is the starting position. */
  readonly Board: { empty(): Board };
  /** Returns the move a move string names; throws for a malformed one. */
  parseMove(text: string): Move;
  /** Returns the move string of a move: parseMove's inverse. */
  formatMove(move: Move): string;
  /**
   * Optional: returns how a finished position ended, in the game's words ("three in a row"),
   * "" while it goes on. BoardGame sends them with its game-ending move.
   */
  endWords?(board: Board): string;
}

/** What the computer's worker needs more of the rules (a game with `computer=True`). */
export interface ComputerRules<Move = any, Board extends Position<Move> & { legalMoves(): Move[] } = any>
  extends Rules<Move, Board> {
  readonly Board: { empty(): Board; fromMoves(moves: readonly (string | Move)[]): Board };
}

/** What a view draws: a BoardGame on the game page, a plain object on the replay page. */
export interface Shown<Move = any, Board extends Position<Move> = Position<Move>> {
  /** The position to draw. */
  readonly board: Board;
  /** The last move played, or null. */
  readonly last: Move | null;
  /** Whether the player may move now (always false on the replay page). */
  readonly enabled: boolean;
}

/** Why a view is drawn again. */
export interface ViewChange<Move = any> {
  /** The move just played, to show arriving, or null. */
  readonly animate: Move | null;
  /** The moves and passes an accepted takeback took back; absent otherwise. */
  readonly undone?: number;
}

/** What a view is given to act with. */
export interface ViewActions<Move = any> {
  /** Plays one whole move that the player chose (or says on the page why it cannot be played). */
  onPlay(move: Move): void;
  /** Returns what the page calls the other side ("Opponent", "The computer"); the game page only. */
  opponent?(): string;
}

/** A board drawn in the page: update() draws it again. */
export interface BoardView<Move = any, Board extends Position<Move> = Position<Move>> {
  update(game: Shown<Move, Board>, change: ViewChange<Move>): void;
}

/** Makes a game's view in `element`, the page's empty `#board`. */
export type CreateView<Move = any, Board extends Position<Move> = Position<Move>> = (
  element: HTMLElement,
  actions: ViewActions<Move>,
) => BoardView<Move, Board>;

/** A game as its page describes it once: the `GAME` of `<game>-game.mjs`. */
export interface PageGame<Move = any, Board extends Position<Move> = Position<Move>> {
  /** The relay's key of the game, as its package's `name`. */
  readonly key: string;
  /** The version of its move strings. */
  readonly version: string;
  /** The game's name, for the window's title and the replay page's. */
  readonly title: string;
  /** The rules module. */
  readonly rules: Rules<Move, Board>;
  /** Each side's name, the first mover's first: ["X", "0"]. */
  readonly sides: readonly string[];
  /** Words for where a move went: "at row 2, column 3". */
  readonly where: (move: Move) => string;
  /** The last move's words, in place of "<who> played <side> <where>.". `side` is null on the replay page. */
  readonly said?: (who: string, side: Side | null, move: Move) => string;
  /** What a click on a move that is not legal is told ("That move is not possible." without it). */
  readonly taken?: string;
  /** The URL of the board's stylesheet, which the replay page adds. */
  readonly stylesheet?: string;
  /** Makes the board's view. */
  readonly createView: CreateView<Move, Board>;
}

/** Builds a game page around the board of `page` in the document's `<main>`, and starts it. */
export function runPage(page: PageGame<any, any>): void;

/** The host a BoardGame plays through, as far as a view reads it. */
export interface BoardGameHost {
  /** The host's State (0 to 5): 2 is this side's turn. */
  readonly state: number;
}

/** A move of the match as the game keeps it: its string, and whether this side played it. */
export interface KeptMove {
  readonly move: string;
  readonly mine: boolean;
}

/** A Game made of a rules module and a view (board-game.mjs): what a view may read of it. */
export class BoardGame<Move = any, Board extends Position<Move> = Position<Move>> {
  constructor(host: BoardGameHost, firstMove: boolean, rules: Rules<Move, Board>, view: BoardView<Move, Board>);
  readonly host: BoardGameHost;
  /** The rules module. */
  readonly rules: Rules<Move, Board>;
  /** The view it draws on. */
  readonly view: BoardView<Move, Board>;
  /** The side this player plays: 0 moves first. */
  readonly side: Side;
  /** The position now. */
  readonly board: Board;
  /** The last move played by either side, or null. */
  readonly last: Move | null;
  /** The side that played the last move, or null. */
  readonly lastBy: Side | null;
  /** Every move so far, both sides'. */
  readonly moves: readonly KeptMove[];
  /** Whether the player may move now. */
  readonly enabled: boolean;
  /** The partner's move this game found illegal (and disputed), or null. */
  readonly illegal: string | null;
  /** Whether this side has a move or pass in play, so may ask to take one back. */
  readonly hasPlayed: boolean;
  /**
   * The words for the result, with the rules' `endWords` when they have them ("You win: three in
   * a row."; else "You win!", "You lose.", "Draw."), or null while the game goes on.
   */
  readonly resultText: string | null;
  /** How the game ended, in the rules' words (their `endWords`); "" without them or while it goes on. */
  endWords(): string;
  /** Returns whether the player may play `move` now. */
  canPlay(move: Move): boolean;
  /** Plays the player's move and sends it; returns whether it was played. */
  play(move: Move): boolean;
  /** Takes back the last `count` moves and passes. */
  undo(count: number): void;
}

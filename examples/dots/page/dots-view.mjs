// The Dots and Boxes board in the page: the running score, then the 24 lines as buttons between
// the dots, undrawn ones drawn faintly, and the boxes marked with their owners. The board is
// one Tab stop: Left and Right step through the lines row by row, Up and Down go to the
// nearest line above or below, Home and End to the ends of a row; Enter or Space draws.

import { BOXES, DOTS, MARKS, formatMove, sameMove } from "./dots.mjs";

/** Returns a line in plain words: "vertical line at row 1, column 2". */
export function lineName(line) {
  const kind = line.kind === "h" ? "horizontal" : "vertical";
  return `${kind} line at row ${line.row + 1}, column ${line.col + 1}`;
}

/** Returns where a move went, for the last-move line: "the vertical line at row 1, column 2". */
export function lineWords(line) {
  return `the ${lineName(line)}`;
}

/** Returns "1 box" or "3 boxes". */
function boxes(count) {
  return count === 1 ? "1 box" : `${count} boxes`;
}

/**
 * Returns the words of the score: "You (X): 2 boxes" and "Opponent (O): 1 box" when the game
 * has a side (the player's page), else "X: 2 boxes" and "O: 1 box" (a replay).
 */
export function scoreWords(score, side, opponent = "Opponent") {
  if (side === undefined || side === null) return score.map((n, p) => `${MARKS[p]}: ${boxes(n)}`);
  return [
    `You (${MARKS[side]}): ${boxes(score[side])}`,
    `${opponent} (${MARKS[1 - side]}): ${boxes(score[1 - side])}`,
  ];
}

/** Returns the line at a place of the 7x7 grid (dots at even, even; boxes at odd, odd). */
function lineAt(r, c) {
  return r % 2 === 0 ? { kind: "h", row: r / 2, col: (c - 1) / 2 } : { kind: "v", row: (r - 1) / 2, col: c / 2 };
}

/**
 * Returns the view of a Dots and Boxes board drawn in `element`; `onPlay(line)` on a choice;
 * `opponent()` names the other side in the score ("Opponent", "Computer").
 */
export function createDotsView(element, { onPlay, opponent = () => "Opponent" }) {
  element.classList.add("dots-area");
  const score = document.createElement("p");
  score.className = "dots-score";
  const grid = document.createElement("div");
  grid.className = "dots-board";
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", "Board: 3 rows of 3 boxes, 24 lines; the arrow keys move between lines");
  element.append(score, grid);
  const tallies = [document.createElement("span"), document.createElement("span")];
  for (const tally of tallies) tally.className = "dots-tally";
  score.append(...tallies);

  /** Every line's button in reading order (row by row of the grid), with its grid place. */
  const order = [];
  const buttons = new Map();
  const boxCells = [];
  for (let r = 0; r < 2 * DOTS - 1; r++) {
    for (let c = 0; c < 2 * DOTS - 1; c++) {
      let cell;
      if (r % 2 === 0 && c % 2 === 0) {
        cell = document.createElement("span");
        cell.className = "dots-dot";
      } else if (r % 2 === 1 && c % 2 === 1) {
        cell = document.createElement("span");
        cell.className = "dots-box";
        boxCells.push(cell);
      } else {
        const line = lineAt(r, c);
        const index = order.length;
        cell = document.createElement("button");
        cell.type = "button";
        cell.className = `dots-line dots-${line.kind}`;
        cell.dataset.line = formatMove(line);
        cell.addEventListener("click", () => onPlay(line));
        cell.addEventListener("focus", () => rove(index, false));
        order.push({ line, r, c, button: cell });
        buttons.set(formatMove(line), cell);
      }
      grid.append(cell);
    }
  }
  let focused = 0;

  function rove(index, move) {
    focused = index;
    for (const { button } of order) button.tabIndex = -1;
    order[index].button.tabIndex = 0;
    if (move) order[index].button.focus();
  }

  /** Returns the index of the line nearest `c` in grid row `r` (the left one of two). */
  function nearestIn(r, c) {
    let best = -1;
    order.forEach((place, index) => {
      if (place.r !== r) return;
      if (best < 0 || Math.abs(place.c - c) < Math.abs(order[best].c - c)) best = index;
    });
    return best;
  }

  grid.addEventListener("keydown", (event) => {
    const { r, c } = order[focused];
    const inRow = order.flatMap((place, index) => (place.r === r ? [index] : []));
    const target = {
      ArrowRight: Math.min(order.length - 1, focused + 1),
      ArrowLeft: Math.max(0, focused - 1),
      ArrowDown: r + 1 < 2 * DOTS - 1 ? nearestIn(r + 1, c) : focused,
      ArrowUp: r > 0 ? nearestIn(r - 1, c) : focused,
      Home: inRow[0],
      End: inRow[inRow.length - 1],
    }[event.key];
    if (target === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    rove(target, true);
  });
  rove(0, false);

  return {
    update(game) {
      const over = game.board.outcome() !== null;
      grid.classList.toggle("enabled", game.enabled);
      for (const { line, button } of order) {
        const drawn = game.board.isDrawn(line);
        const last = sameMove(game.last, line);
        button.classList.toggle("drawn", drawn);
        button.classList.toggle("last", last);
        button.setAttribute("aria-disabled", String(drawn || !game.enabled || over));
        const state = drawn ? (last ? "drawn, last move" : "drawn") : "open";
        const name = lineName(line);
        button.setAttribute("aria-label", `${name[0].toUpperCase()}${name.slice(1)}: ${state}`);
      }
      boxCells.forEach((box, b) => {
        const owner = game.board.boxOwner(Math.floor(b / BOXES), b % BOXES);
        box.textContent = owner === null ? "" : MARKS[owner];
        box.dataset.owner = owner === null ? "" : MARKS[owner];
      });
      const words = scoreWords(game.board.score(), game.side, opponent());
      tallies.forEach((tally, i) => {
        tally.textContent = words[i];
      });
    },
  };
}


// The Connect Four board in the page: seven column buttons under a "hand" that holds the
// player's piece over the column under the pointer (or keyboard focus); a dropped piece
// falls into place. Left and Right choose a column, Enter, Space or Down drops.

import { HEIGHT, WIDTH } from "./connect4.mjs";

/** The name of each side's colour, indexed by player. */
export const COLOURS = Object.freeze(["Red", "Yellow"]);

/** Returns the view of a Connect Four board drawn in `element`; `onPlay(column)` on a drop. */
export function createConnect4View(element, { onPlay }) {
  element.classList.add("c4");
  const hand = document.createElement("div");
  hand.className = "c4-hand";
  hand.setAttribute("aria-hidden", "true");
  const grid = document.createElement("div");
  grid.className = "c4-grid";
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", "Board: 7 columns of 6 cells");
  element.append(hand, grid);

  const slots = [];
  const columns = [];
  const cells = [];
  let selected = null;
  let focused = 3;
  let lastGame = null;

  for (let col = 0; col < WIDTH; col++) {
    const slot = document.createElement("span");
    slot.className = "c4-slot";
    slot.append(document.createElement("span"));
    hand.append(slot);
    slots.push(slot);

    const button = document.createElement("button");
    button.type = "button";
    button.className = "c4-col";
    button.dataset.col = String(col);
    const column = [];
    for (let row = HEIGHT - 1; row >= 0; row--) {
      const cell = document.createElement("span");
      cell.className = "c4-cell";
      cell.dataset.row = String(row);
      button.append(cell);
      column[row] = cell;
    }
    button.addEventListener("click", () => onPlay(col));
    button.addEventListener("pointerenter", () => select(col));
    button.addEventListener("focus", () => {
      focused = col;
      rove(false);
      select(col);
    });
    grid.append(button);
    columns.push(button);
    cells.push(column);
  }
  grid.addEventListener("pointerleave", () => {
    select(grid.contains(document.activeElement) ? focused : null);
  });
  grid.addEventListener("focusout", (event) => {
    if (!grid.contains(event.relatedTarget)) select(null);
  });
  grid.addEventListener("keydown", (event) => {
    let target = null;
    if (event.key === "ArrowLeft") target = Math.max(0, focused - 1);
    else if (event.key === "ArrowRight") target = Math.min(WIDTH - 1, focused + 1);
    else if (event.key === "Home") target = 0;
    else if (event.key === "End") target = WIDTH - 1;
    else if (event.key === "ArrowDown") {
      event.preventDefault();
      onPlay(focused);
      return;
    }
    if (target !== null) {
      event.preventDefault();
      focused = target;
      rove(true);
    }
  });
  element.addEventListener("animationend", (event) => event.target.classList.remove("drop"));
  rove(false);

  function rove(move) {
    for (const button of columns) button.tabIndex = -1;
    columns[focused].tabIndex = 0;
    if (move) columns[focused].focus();
  }

  function select(col) {
    selected = col;
    if (lastGame !== null) drawHand(lastGame);
  }

  function drawHand(game) {
    const open = game.enabled && game.board.outcome() === null;
    for (let col = 0; col < WIDTH; col++) {
      const playable = open && game.board.height(col) < HEIGHT;
      const here = open && col === selected;
      // No piece hovers over a full column: it could not go there.
      slots[col].firstChild.className = here && playable ? `disc p${game.side}` : "";
      columns[col].classList.toggle("hover", here && playable);
    }
  }

  function drop(disc, col, row) {
    // The piece falls from the hand, above the top row, to its cell.
    const fall = HEIGHT - row;
    disc.style.setProperty("--fall", String(fall));
    disc.style.setProperty("--drop-ms", `${Math.round(140 * Math.sqrt(fall))}ms`);
    disc.classList.add("drop");
  }

  return {
    update(game, { animate }) {
      lastGame = game;
      const outcome = game.board.outcome();
      const winning = outcome?.line ?? [];
      element.classList.toggle("enabled", game.enabled && outcome === null);
      for (let col = 0; col < WIDTH; col++) {
        const height = game.board.height(col);
        const pieces = [];
        for (let row = 0; row < HEIGHT; row++) {
          const piece = game.board.pieceAt(col, row);
          const cell = cells[col][row];
          let disc = cell.firstChild;
          if (piece === null) {
            disc?.remove();
            continue;
          }
          pieces.push(COLOURS[piece]);
          if (disc === null) {
            disc = document.createElement("span");
            cell.append(disc);
          }
          const last = game.last === col && row === height - 1;
          const win = winning.some((w) => w.col === col && w.row === row);
          disc.classList.add("disc");
          disc.classList.toggle("p0", piece === 0);
          disc.classList.toggle("p1", piece === 1);
          disc.classList.toggle("last", last);
          disc.classList.toggle("win", win);
          disc.dataset.player = String(piece);
          if (animate === col && row === height - 1) drop(disc, col, row);
        }
        const playable = game.enabled && outcome === null && height < HEIGHT;
        const button = columns[col];
        button.setAttribute("aria-disabled", String(!playable));
        const words = [`Column ${col + 1}: ${pieces.length ? pieces.join(", ") : "empty"}`];
        words.push(height === HEIGHT ? "full" : `${HEIGHT - height} free`);
        if (game.last === col) words.push("last move");
        button.setAttribute("aria-label", words.join("; "));
      }
      drawHand(game);
    },
  };
}

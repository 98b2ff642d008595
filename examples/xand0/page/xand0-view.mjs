// The X and 0 board in the page: nine buttons, arrow keys between them, Enter or Space to play.

import { SIZE, sameMove } from "./xand0.mjs";

/** Each side's mark as the page shows it: X, and 0 (zero), as in the game's name. */
export const SYMBOLS = Object.freeze(["X", "0"]);

/** Returns the view of an X and 0 board drawn in `element`; `onPlay(move)` on a choice. */
export function createXand0View(element, { onPlay }) {
  element.classList.add("x0-board");
  element.setAttribute("role", "group");
  element.setAttribute("aria-label", "Board: 3 rows of 3 cells");
  const cells = [];
  let focus = { col: 1, row: 1 };
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "x0-cell";
      button.dataset.cell = `${col}${row}`;
      button.addEventListener("click", () => onPlay({ col, row }));
      button.addEventListener("focus", () => {
        focus = { col, row };
        roveTo(focus, false);
      });
      element.append(button);
      cells.push(button);
    }
  }

  function cellAt({ col, row }) {
    return cells[row * SIZE + col];
  }

  function roveTo(target, move) {
    for (const cell of cells) cell.tabIndex = -1;
    cellAt(target).tabIndex = 0;
    if (move) cellAt(target).focus();
  }

  element.addEventListener("keydown", (event) => {
    const steps = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    let target = null;
    if (event.key in steps) {
      const [dc, dr] = steps[event.key];
      target = {
        col: Math.min(SIZE - 1, Math.max(0, focus.col + dc)),
        row: Math.min(SIZE - 1, Math.max(0, focus.row + dr)),
      };
    } else if (event.key === "Home") {
      target = { col: 0, row: focus.row };
    } else if (event.key === "End") {
      target = { col: SIZE - 1, row: focus.row };
    }
    if (target !== null) {
      event.preventDefault();
      focus = target;
      roveTo(target, true);
    }
  });
  element.addEventListener("animationend", (event) => event.target.classList.remove("arrive"));
  roveTo(focus, false);

  return {
    update(game, { animate }) {
      const outcome = game.board.outcome();
      const winning = outcome?.line ?? [];
      element.classList.toggle("enabled", game.enabled);
      for (let row = 0; row < SIZE; row++) {
        for (let col = 0; col < SIZE; col++) {
          const move = { col, row };
          const cell = cellAt(move);
          const piece = game.board.pieceAt(col, row);
          const mark = piece === null ? "" : SYMBOLS[piece];
          if (cell.textContent !== mark) {
            const span = document.createElement("span");
            span.className = "mark";
            span.textContent = mark;
            cell.replaceChildren(...(mark ? [span] : []));
          }
          cell.dataset.mark = mark;
          const last = sameMove(game.last, move);
          const win = winning.some((w) => sameMove(w, move));
          cell.classList.toggle("last", last);
          cell.classList.toggle("win", win);
          // Other updates come while the mark arrives: only animationend takes it away.
          if (sameMove(animate, move)) cell.firstChild?.classList.add("arrive");
          const playable = piece === null && game.enabled && outcome === null;
          cell.setAttribute("aria-disabled", String(!playable));
          const words = [`Row ${row + 1}, column ${col + 1}: ${mark || "empty"}`];
          if (last) words.push("last move");
          if (win) words.push("winning line");
          cell.setAttribute("aria-label", words.join(", "));
        }
      }
    },
  };
}

// The Dots and Boxes board in the page: the 24 lines as buttons between the dots, the boxes
// marked with their owners; Tab moves between lines, Enter or Space draws one.

import { BOXES, DOTS, LINES, MARKS, formatMove, sameMove } from "./dots.mjs";

/** Returns the view of a Dots and Boxes board drawn in `element`; `onPlay(line)` on a choice. */
export function createDotsView(element, { onPlay }) {
  element.classList.add("dots-board");
  element.setAttribute("role", "group");
  element.setAttribute("aria-label", "Board: 3 rows of 3 boxes, 24 lines");
  const lines = new Map();
  const boxes = [];
  // A grid of 7x7 cells: dots at even (row, col), lines between them, boxes at odd, odd.
  for (let r = 0; r < 2 * DOTS - 1; r++) {
    for (let c = 0; c < 2 * DOTS - 1; c++) {
      let cell;
      if (r % 2 === 0 && c % 2 === 0) {
        cell = document.createElement("span");
        cell.className = "dots-dot";
      } else if (r % 2 === 1 && c % 2 === 1) {
        cell = document.createElement("span");
        cell.className = "dots-box";
        boxes.push(cell);
      } else {
        const line = r % 2 === 0
          ? { kind: "h", row: r / 2, col: (c - 1) / 2 }
          : { kind: "v", row: (r - 1) / 2, col: c / 2 };
        cell = document.createElement("button");
        cell.type = "button";
        cell.className = `dots-line dots-${line.kind}`;
        cell.dataset.line = formatMove(line);
        cell.addEventListener("click", () => onPlay(line));
        lines.set(formatMove(line), cell);
      }
      element.append(cell);
    }
  }

  return {
    update(game) {
      const over = game.board.outcome() !== null;
      element.classList.toggle("enabled", game.enabled);
      for (const line of LINES) {
        const button = lines.get(formatMove(line));
        const drawn = game.board.isDrawn(line);
        button.classList.toggle("drawn", drawn);
        button.classList.toggle("last", sameMove(game.last, line));
        const playable = !drawn && game.enabled && !over;
        button.setAttribute("aria-disabled", String(!playable));
        const where = line.kind === "h"
          ? `row ${line.row + 1}, between columns ${line.col + 1} and ${line.col + 2}`
          : `column ${line.col + 1}, between rows ${line.row + 1} and ${line.row + 2}`;
        button.setAttribute("aria-label", `Line ${formatMove(line)}, ${where}: ${drawn ? "drawn" : "open"}`);
      }
      boxes.forEach((box, b) => {
        const owner = game.board.boxOwner(Math.floor(b / BOXES), b % BOXES);
        box.textContent = owner === null ? "" : MARKS[owner];
        box.dataset.owner = owner === null ? "" : MARKS[owner];
      });
    },
  };
}

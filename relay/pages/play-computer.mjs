// The computer a game page seats opposite its player (play.mjs), its seat kept by the tab.

import { startComputer } from "./computer.mjs";
import { PAGE_TIMING } from "./connection.mjs";
import { computerKey, relayBeside } from "./page-links.mjs";

/**
 * Seats the computer opposite the player in room `roomName` (taking its seat up again when
 * `resuming`, if this tab kept it); null when a resumed match has no computer to bring back.
 * @param {import("./play.mjs").PageGame} page the game page's GAME
 * @param {string | null} roomName the private room both seats are in
 * @param {string} computerLevel the computer's level ("easy", "medium", "strong")
 * @param {boolean} resuming whether the player's seat is taken up again (a reload)
 * @param {import("./clock.mjs").TimeControl | null} timeControl the match's clock, if any
 * @param {(thinking: boolean) => void} onThinking told when the computer starts and stops thinking
 */
export function seatComputer(page, roomName, computerLevel, resuming, timeControl, onThinking) {
  let seat = null;
  try {
    seat = JSON.parse(sessionStorage.getItem(computerKey(page.key)) ?? "null");
  } catch {
    // A damaged entry is as good as none.
  }
  // A match resumed without the computer's seat has no computer to bring back.
  if (resuming && seat?.room !== roomName) return null;
  return startComputer({
    relay: relayBeside(location.href),
    gameKey: page.key,
    version: page.version,
    room: roomName,
    level: computerLevel,
    timeControl,
    rules: page.rules,
    timing: PAGE_TIMING,
    resumeFrom: resuming ? seat : null,
    onTicket: (/** @type {object} */ ticket) => {
      sessionStorage.setItem(computerKey(page.key), JSON.stringify({ ...ticket, room: roomName }));
    },
    onThinking,
  });
}

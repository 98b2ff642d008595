// The computer a game page seats opposite its player (play.mjs), its seat kept by the tab.

import { startComputer } from "./computer.mjs";
import { PAGE_TIMING } from "./connection.mjs";
import { computerKey, relayBeside } from "./page-links.mjs";

/**
 * Seats the computer opposite the player in room `roomName` (taking its seat up again when
 * `resuming`, if this tab kept it); null when a resumed match has no computer to bring back.
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
    onTicket: (ticket) => {
      sessionStorage.setItem(computerKey(page.key), JSON.stringify({ ...ticket, room: roomName }));
    },
    onThinking,
  });
}

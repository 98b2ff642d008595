// The lobby: pick a game, then play a random opponent or open a private room.

import { newRoomName, storageKey } from "./play.mjs";

for (const button of document.querySelectorAll("button[data-private]")) {
  button.addEventListener("click", () => {
    location.assign(`${button.dataset.private}.html#room=${newRoomName()}`);
  });
}

// A match still going on in this tab gets a way back to it.
for (const link of document.querySelectorAll("a[data-resume]")) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey(link.dataset.resume)) ?? "null");
    if (saved && !saved.finished) {
      link.hidden = false;
      link.href = `${link.dataset.resume}.html${saved.room ? `#room=${saved.room}` : ""}`;
    }
  } catch {
    // Nothing to resume.
  }
}

// A game page's controls (play.mjs): the start section's buttons, the ways to play on after a
// match, Cancel, Resign and its dialog, the room link's Copy, the turn alert's switches, and
// what the tab does as it is left, brought back or sent to another room's link.

import { loadChoice, saveChoice } from "./computer-choice.mjs";
import { newRoomName, roomFragment } from "./page-links.mjs";

/**
 * Wires the page's controls to its match.
 * @param {import("./play-elements.mjs").PageElements} el the page's elements
 * @param {import("./play-match.mjs").PageMatch} match the page's match
 * @param {object} parts
 * @param {import("./turn-alert.mjs").TurnAlert} parts.turnAlert the page's turn alert
 * @param {() => {name: string}} parts.opponent what the page calls the other side
 */
export function wireControls(el, match, { turnAlert, opponent }) {
  /** Brings the status line into focus, to say what a button started. */
  const focusStatus = () => el.status.focus?.();
  el.random.addEventListener("click", () => match.play(null, null, null, false, el.timeControl.value));
  el.private.addEventListener("click", () => {
    const name = newRoomName();
    history.replaceState(null, "", `#${roomFragment(name, el.timeControl.value)}`);
    match.play(name, null, null, false, el.timeControl.value);
  });
  el.again.addEventListener("click", () => {
    match.again();
    focusStatus();
  });
  const level = el.level;
  el.computer?.addEventListener("click", () => {
    if (level === null) return;
    saveChoice({ level: level.value, clock: el.timeControl.value });
    match.play(newRoomName(), null, level.value, false, el.timeControl.value);
  });
  el.againComputer.addEventListener("click", () => {
    const choice = saveChoice({ level: el.againLevel.value, clock: loadChoice().clock });
    match.keep(null);
    match.play(newRoomName(), null, choice.level, false, choice.clock);
    focusStatus();
  });
  el.retry.addEventListener("click", () => {
    match.retry();
    focusStatus();
  });
  el.sound.addEventListener("change", () => {
    turnAlert.sound = el.sound.checked; // this click lets the page make sound
  });
  el.notify.addEventListener("click", () => turnAlert.ask());
  window.addEventListener("pagehide", () => match.leave());
  // Back from the browser's page cache after the seek was withdrawn: come back to it afresh.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && match.saved?.withdrawn) location.reload();
  });
  // A partner may have come meanwhile: then the match simply goes on.
  el.cancel.addEventListener("click", () => match.cancel());
  el.resign.addEventListener("click", () => {
    const question = el.confirm.querySelector("p");
    if (question !== null) question.textContent = `Resign this game? ${opponent().name} wins.`;
    el.confirm.showModal();
  });
  el.confirm.addEventListener("close", () => {
    if (el.confirm.returnValue === "resign" && match.host?.outcome === null) match.host.resign();
  });
  el.copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(el.shareLink.value);
      el.copy.textContent = "Copied";
    } catch {
      el.shareLink.select();
      el.copy.textContent = "Press Ctrl+C to copy";
    }
  });
  // Opening another room's link in this tab changes only the fragment: start afresh.
  window.addEventListener("hashchange", () => location.reload());

  if (level !== null) level.value = loadChoice().level;
  el.againLevel.value = loadChoice().level;
}

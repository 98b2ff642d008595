// The computer's level and clock as this browser chose them last: kept in localStorage, read
// back by the lobby and the game pages, and carried by the lobby's "Play the computer" link
// (xand0.html#computer&level=strong&clock=5%2B3).

import { LEVEL_NAMES } from "./computer.mjs";

/** The localStorage key of the last choice. */
export const CHOICE_STORAGE = "movewire.computer-choice";

/** The clocks the computer plays with (it keeps no seat for days): value and label. */
export const COMPUTER_CLOCKS = Object.freeze([
  ["", "No clock"],
  ["5+3", "5 min + 3 s"],
  ["10", "10 min"],
]);

/** The choice before any is made. */
export const DEFAULT_CHOICE = Object.freeze({ level: "medium", clock: "" });

/** Returns a choice with anything not offered replaced by the default. */
export function cleanChoice(choice) {
  const level = Object.hasOwn(LEVEL_NAMES, choice?.level) ? choice.level : DEFAULT_CHOICE.level;
  const clock = COMPUTER_CLOCKS.some(([value]) => value === choice?.clock) ? choice.clock : DEFAULT_CHOICE.clock;
  return Object.freeze({ level, clock });
}

/** Returns the last choice kept (the default when none is, or it is garbled). */
export function loadChoice(storage = globalThis.localStorage) {
  try {
    return cleanChoice(JSON.parse(storage.getItem(CHOICE_STORAGE) ?? "null"));
  } catch {
    return DEFAULT_CHOICE;
  }
}

/** Keeps a choice for next time; returns it as kept. */
export function saveChoice(choice, storage = globalThis.localStorage) {
  const clean = cleanChoice(choice);
  try {
    storage.setItem(CHOICE_STORAGE, JSON.stringify(clean));
  } catch {
    // Storage refused (private mode, full): the choice simply is not remembered.
  }
  return clean;
}

/** Returns the fragment that plays the computer at a choice: computer&level=L&clock=C. */
export function computerFragment(choice) {
  const { level, clock } = cleanChoice(choice);
  return clock ? `computer&level=${level}&clock=${encodeURIComponent(clock)}` : `computer&level=${level}`;
}

/** Fills a <select> with options [value, label] and selects `value`. */
export function fillSelect(select, options, value) {
  select.replaceChildren(...options.map(([v, label]) => new Option(label, v, false, v === value)));
}

/**
 * Sets up the lobby's computer choices: each [data-computer] link, with the level and clock
 * boxes beside it ([data-choice=level], [data-choice=clock] in the same .computer-choice),
 * shows the last choice and keeps a new one.
 */
export function setUpLobbyChoices(document) {
  for (const box of document.querySelectorAll(".computer-choice")) {
    const link = box.querySelector("a[data-computer]");
    const level = box.querySelector("[data-choice=level]");
    const clock = box.querySelector("[data-choice=clock]");
    const choice = loadChoice();
    fillSelect(level, Object.entries(LEVEL_NAMES), choice.level);
    fillSelect(clock, COMPUTER_CLOCKS, choice.clock);
    const show = () => {
      link.href = `${link.dataset.page ?? `${link.dataset.computer}.html`}#${computerFragment({ level: level.value, clock: clock.value })}`;
    };
    const keep = () => {
      saveChoice({ level: level.value, clock: clock.value });
      show();
    };
    level.addEventListener("change", keep);
    clock.addEventListener("change", keep);
    show();
  }
}

// The player's display name: typed once (in the lobby or a game page's start section), kept in
// localStorage beside the player key, and sent with every seek. The relay shows it to the
// partner, to spectators and in the lobby; every page shows names as text, never as markup,
// through shownName() or nameElement(): a player with no name is "Anonymous" everywhere, and a
// long name is cut with an ellipsis, whole in its title.

/** The localStorage key under which the pages keep the player's name. */
export const NAME_STORAGE = "movewire.name";

/** The most characters a name may have (the relay's rule, once trimmed). */
export const NAME_MOST = 32;

// Control characters and bidirectional overrides or isolates, which the relay refuses in a
// name: they are dropped as the name is kept, so that a seek never fails for them.
const REFUSED = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Returns a name as the relay takes it: trimmed, in NFC, at most NAME_MOST characters; null for none. */
export function cleanName(text) {
  const name = String(text ?? "").normalize("NFC").replace(REFUSED, "").trim();
  return name === "" ? null : Array.from(name).slice(0, NAME_MOST).join("").trim();
}

/** The one word every page shows for a player with no name (none typed, or a relay that keeps none). */
export const NAMELESS = "Anonymous";

/** Returns a player's name as every page shows it: the name, or NAMELESS for none. */
export function shownName(name) {
  return typeof name === "string" && name.trim() !== "" ? name : NAMELESS;
}

/**
 * Returns a player's name as an element (a span of class "shown-name", its words as text):
 * style.css cuts a long one with an ellipsis, and its title holds it whole. A nameless
 * player's is NAMELESS, untitled.
 */
export function nameElement(document, name) {
  const span = document.createElement("span");
  span.className = "shown-name";
  span.textContent = shownName(name);
  if (span.textContent !== NAMELESS) span.title = span.textContent;
  return span;
}

/** Returns the name kept (localStorage unless given), or null. */
export function loadName(storage = globalThis.localStorage) {
  try {
    return cleanName(storage.getItem(NAME_STORAGE));
  } catch {
    return null; // storage refused (a private window's quota, say): no name
  }
}

/** Keeps a name typed by the player (forgets it when empty); returns the name kept, or null. */
export function saveName(text, storage = globalThis.localStorage) {
  const name = cleanName(text);
  try {
    if (name === null) storage.removeItem(NAME_STORAGE);
    else storage.setItem(NAME_STORAGE, name);
  } catch {
    // Not kept: it is still sent with this page's seeks.
  }
  return name;
}

/**
 * Wires a name field: it shows the name kept, and keeps what is typed into it. Returns a
 * function that reads the field's name (null for none).
 */
export function nameField(input, storage = globalThis.localStorage) {
  input.maxLength = NAME_MOST;
  input.value = loadName(storage) ?? "";
  input.addEventListener("input", () => saveName(input.value, storage));
  input.addEventListener("change", () => {
    input.value = saveName(input.value, storage) ?? "";
  });
  return () => cleanName(input.value);
}

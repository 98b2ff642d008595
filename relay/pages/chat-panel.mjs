// The chat of a match on a page: the lines said so far, in order, each as plain text (a line
// that looks like markup stays words: never innerHTML), and on a player's page a field to say
// one. A relay started with --chat off refuses a line (chat/off): the panel then hides its list
// and field and says so. A line the relay's host erased (its text "") reads "(removed by the
// host)"; the lines of an opponent this player muted or blocked are hidden, with a one-line note
// ("2 lines hidden (muted)").

/** What the panel says when the relay refuses a line, by the relay's error code. */
export const CHAT_REFUSALS = Object.freeze({
  "chat/off": "This relay carries no chat.",
  "chat/too_fast": "You are sending lines too fast: wait a moment.",
  "chat/full": "The chat of this match is full.",
  "match/not_started": "The chat opens when the match starts.",
  "match/finished": "The match is over: the chat is closed.",
});

/** How near the newest line (in CSS pixels) a reader counts as following the chat. */
const FOLLOW_PX = 24;

/** What a line erased by the relay's host (its text "") reads, in place of its words. */
export const ERASED = "(removed by the host)";

/** Returns the note of the lines hidden: "1 line hidden (muted)", "3 lines hidden (blocked)". */
export function hiddenWords(count, why) {
  return `${count} ${count === 1 ? "line" : "lines"} hidden (${why})`;
}

/** Returns who said a line, as a page shows it: "You", the seat's name, or its side's word. */
export function speaker(line, seat, names, others) {
  if (seat !== null && line.seat === seat) return "You";
  return names?.[line.seat] ?? others[line.seat];
}

/**
 * A chat panel in `element` (a section holding .chat-lines, and on a player's page a form with
 * an input, a .chat-hidden note and a .chat-note). `send(text)` says a line (a Promise); without
 * it the panel only shows the lines (a spectator).
 */
export class ChatPanel {
  #element;
  #list;
  #form;
  #input;
  #note;
  #hiddenNote;
  #shown = 0;
  #off = false;
  #hiding = ""; // whose lines are hidden, and why ("1:muted"; "" for nobody's)
  #hidden = 0; // how many lines are hidden
  #sent = false; // whether this page sent a line not shown yet: its list goes to the newest

  constructor(element, send = null) {
    this.#element = element;
    this.#list = element.querySelector(".chat-lines");
    this.#form = element.querySelector("form");
    this.#input = element.querySelector("input");
    this.#note = element.querySelector(".chat-note");
    this.#hiddenNote = element.querySelector(".chat-hidden");
    if (this.#form !== null && send !== null) {
      this.#form.addEventListener("submit", (event) => {
        event.preventDefault();
        const text = this.#input.value.trim();
        if (text === "") return;
        this.say("");
        this.#input.value = "";
        this.#sent = true;
        send(text).catch((error) => {
          // Not said: the words come back to the field, to send again.
          this.#sent = false;
          if (this.#input.value === "" && error?.code !== "chat/off") this.#input.value = text;
          this.refused(error);
        });
      });
    }
  }

  /** Returns whether the relay refused the chat (--chat off): the panel stays hidden. */
  get off() {
    return this.#off;
  }

  /**
   * Shows the lines (every line so far, in order: new ones are added, never redrawn) with
   * who said each (`who(line)`); `open` says whether the field takes lines now. `hide`
   * ({seat, why}, or null) hides the lines of that seat, counted in a note that says `why`
   * ("muted", "blocked"; null: hidden without a note, while the page does not know yet); a
   * change of it draws the lines afresh.
   */
  show(lines, who, open = true, hide = null) {
    const hiding = hide === null ? "" : `${hide.seat}:${hide.why ?? ""}`;
    if (hiding !== this.#hiding) {
      this.#list.replaceChildren();
      this.#shown = 0;
      this.#hidden = 0;
      this.#hiding = hiding;
    }
    const list = this.#list;
    // A reader at the newest line (or who just sent one) follows the new ones; one who
    // scrolled back to read stays where they are.
    const following = this.#sent || list.scrollHeight - list.scrollTop - list.clientHeight < FOLLOW_PX;
    const before = list.children.length;
    for (const line of lines.slice(this.#shown)) {
      if (hide !== null && line.seat === hide.seat) {
        this.#hidden += 1;
        continue;
      }
      const item = this.#element.ownerDocument.createElement("li");
      const name = this.#element.ownerDocument.createElement("span");
      name.className = "chat-who";
      name.textContent = `${who(line)}:`;
      const text = this.#element.ownerDocument.createElement("span");
      // An erased line keeps its place, its words gone: a note, never an empty line.
      text.className = line.text === "" ? "chat-text chat-removed" : "chat-text";
      text.textContent = line.text === "" ? ERASED : line.text;
      item.dataset.n = String(line.n);
      item.append(name, " ", text);
      this.#list.append(item);
    }
    this.#shown = Math.max(this.#shown, lines.length);
    this.#list.hidden = this.#off || this.#list.children.length === 0;
    if (list.children.length > before) {
      this.#sent = false;
      if (following) list.scrollTop = list.scrollHeight;
    }
    if (this.#hiddenNote !== null) {
      const why = hide?.why ?? null;
      this.#hiddenNote.textContent = why !== null && this.#hidden > 0 ? hiddenWords(this.#hidden, why) : "";
      this.#hiddenNote.hidden = this.#off || this.#hiddenNote.textContent === "";
    }
    if (this.#form !== null) {
      this.#form.hidden = this.#off;
      for (const control of this.#form.elements) control.disabled = !open;
    }
  }

  /** Starts afresh (a new match): no lines. */
  clear() {
    this.#list.replaceChildren();
    this.#shown = 0;
    this.#hidden = 0;
    this.#hiding = "";
    if (this.#hiddenNote !== null) this.#hiddenNote.hidden = true;
    this.say("");
  }

  /** Shows or hides the whole panel (hidden for good once the relay said chat/off, but its note). */
  set hidden(hidden) {
    this.#element.hidden = hidden && !this.#off;
    if (this.#off) this.#element.hidden = false;
  }

  /** Says why a line was not sent; chat/off hides the list and field for good. */
  refused(error) {
    if (error?.code === "chat/off") {
      this.#off = true;
      this.#list.hidden = true;
      if (this.#hiddenNote !== null) this.#hiddenNote.hidden = true;
      if (this.#form !== null) this.#form.hidden = true;
    }
    this.say(CHAT_REFUSALS[error?.code] ?? `Not sent: ${error?.detail ?? error?.message ?? error}`);
  }

  /** Shows a short note under the panel ("" clears it). */
  say(text) {
    if (this.#note === null) return;
    this.#note.textContent = text;
    this.#note.hidden = text === "";
  }
}

// The chat of a match on a page: the lines said so far, in order, each as plain text (a line
// that looks like markup stays words: never innerHTML), and on a player's page a field to say
// one. A relay started with --chat off refuses a line (chat/off): the panel then hides its list
// and field and says so. A line the relay's host erased (its text "") reads "(removed by the
// host)"; the lines of an opponent this player muted or blocked are hidden, with a one-line note
// ("2 lines hidden (muted)").
//
// The list follows its newest line unless its reader scrolled back to read; a line that comes
// meanwhile shows a "New messages" button (announced politely) that takes them down, and goes
// once they are at the newest line. The lines this player says wait in a ChatOutbox
// (chat-outbox.mjs), sent in order, shown under the list as "sending…" until the table carries
// them: a relay that paces the chat (429) keeps them waiting, never loses one.

import { ChatOutbox, WAITING_SHOWN_MS, waitingWords } from "./chat-outbox.mjs";

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

/** Returns whether a list shows its newest line: its reader is within FOLLOW_PX of its end. */
export function atNewest(scrollHeight, scrollTop, clientHeight) {
  return scrollHeight - scrollTop - clientHeight < FOLLOW_PX;
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
  #newest = 0; // the highest number of a line shown (or hidden)
  #mark; // the "New messages" button
  #outbox = null; // the lines said, waiting to be sent or shown (a player's page)
  #waiting = null; // the list of those lines
  #waitingNote = null; // "2 lines waiting to send…" (a polite live region)
  #noteTimer = null;

  constructor(element, send = null) {
    this.#element = element;
    this.#list = element.querySelector(".chat-lines");
    this.#form = element.querySelector("form");
    this.#input = element.querySelector("input");
    this.#note = element.querySelector(".chat-note");
    this.#hiddenNote = element.querySelector(".chat-hidden");
    const document = element.ownerDocument;
    // The list scrolls: a Tab stop of its own, so that the keyboard scrolls it too.
    this.#list.tabIndex = 0;
    // The mark sits in a live region of its own, kept in the page (an empty one, while hidden),
    // so that screen readers hear it as it shows.
    const markRegion = document.createElement("div");
    markRegion.className = "chat-new-mark";
    markRegion.setAttribute("aria-live", "polite");
    this.#mark = document.createElement("button");
    this.#mark.type = "button";
    this.#mark.className = "chat-new";
    this.#mark.hidden = true;
    const arrow = document.createElement("span");
    arrow.setAttribute("aria-hidden", "true");
    arrow.textContent = " ↓";
    this.#mark.append("New messages", arrow);
    markRegion.append(this.#mark);
    this.#list.after(markRegion);
    this.#mark.addEventListener("click", () => this.#toNewest());
    this.#list.addEventListener("scroll", () => {
      const list = this.#list;
      if (atNewest(list.scrollHeight, list.scrollTop, list.clientHeight)) this.#mark.hidden = true;
      else this.#sent = false; // scrolled back after sending: they read, not follow
    });
    if (this.#form !== null && send !== null) {
      this.#waiting = document.createElement("ol");
      this.#waiting.className = "chat-waiting";
      this.#waiting.setAttribute("aria-label", "Your lines not yet sent");
      this.#waiting.hidden = true;
      this.#waitingNote = document.createElement("p");
      this.#waitingNote.className = "chat-waiting-note";
      this.#waitingNote.setAttribute("role", "status");
      this.#form.before(this.#waiting, this.#waitingNote);
      this.#outbox = new ChatOutbox(send, {
        changed: () => this.#drawWaiting(),
        failed: (error, line) => {
          // Not said: the words come back to the field, to send again.
          this.#sent = false;
          if (this.#input.value === "" && error?.code !== "chat/off") this.#input.value = line.text;
          this.refused(error);
        },
      });
      this.#form.addEventListener("submit", (event) => {
        event.preventDefault();
        const text = this.#input.value.trim();
        if (text === "") return;
        this.say("");
        this.#input.value = "";
        this.#sent = true;
        this.#outbox.add(text);
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
    const following = this.#sent || atNewest(list.scrollHeight, list.scrollTop, list.clientHeight);
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
    for (const line of lines) this.#newest = Math.max(this.#newest, Number(line.n) || 0);
    this.#list.hidden = this.#off || this.#list.children.length === 0;
    if (list.children.length > before) {
      this.#sent = false;
      if (following) this.#toNewest(false);
      else this.#mark.hidden = false; // said out of sight: the mark takes the reader down
    }
    // The lines said here that the table now shows leave the waiting list.
    this.#outbox?.shown(this.#newest);
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

  /** Starts afresh (a new match): no lines, none waiting. */
  clear() {
    this.#list.replaceChildren();
    this.#shown = 0;
    this.#hidden = 0;
    this.#hiding = "";
    this.#newest = 0;
    this.#mark.hidden = true;
    if (this.#hiddenNote !== null) this.#hiddenNote.hidden = true;
    this.#outbox?.clear();
    this.say("");
  }

  /** Shows the newest line; from the mark (`chosen`), the focus goes on to the field (or the list). */
  #toNewest(chosen = true) {
    const list = this.#list;
    list.scrollTop = list.scrollHeight;
    this.#mark.hidden = true;
    if (!chosen) return;
    // The mark is gone: the focus must not go with it.
    if (this.#input !== null && !this.#input.disabled && this.#form?.hidden === false) this.#input.focus();
    else list.focus();
  }

  /** Draws the lines waiting to be sent, and says how many wait once they wait a while. */
  #drawWaiting() {
    if (this.#outbox === null) return;
    const document = this.#element.ownerDocument;
    const items = this.#outbox.lines.map((line) => {
      const item = document.createElement("li");
      item.className = "chat-pending";
      item.dataset.state = line.state;
      const name = document.createElement("span");
      name.className = "chat-who";
      name.textContent = "You:";
      const text = document.createElement("span");
      text.className = "chat-text";
      text.textContent = line.text;
      const state = document.createElement("span");
      state.className = "chat-sending";
      state.textContent = { waiting: "sending…", sent: "sent", unsent: "not sent" }[line.state];
      item.append(name, " ", text, " ", state);
      return item;
    });
    this.#waiting.replaceChildren(...items);
    this.#waiting.hidden = this.#off || items.length === 0;
    clearTimeout(this.#noteTimer);
    this.#noteTimer = null;
    const overdue = this.#off ? 0 : this.#outbox.overdue();
    const words = overdue > 0 ? waitingWords(overdue) : "";
    if (this.#waitingNote.textContent !== words) this.#waitingNote.textContent = words;
    // Not overdue yet: looked at again once the oldest line has waited long enough.
    if (overdue === 0 && this.#outbox.waiting > 0) {
      this.#noteTimer = setTimeout(() => this.#drawWaiting(), WAITING_SHOWN_MS / 4);
    }
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
      this.#mark.hidden = true;
      this.#drawWaiting();
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

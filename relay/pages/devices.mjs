// The "Your devices" page (devices.html): this browser's player, its passkeys (list, add,
// remove), a transfer code for a device without passkeys, and signing in here with a passkey
// or a code (docs/protocol.md#passkeys). Labels are text: always set with textContent.

import { NotifyControl, PushCalls } from "./notify.mjs";
import { relayBeside } from "./page-links.mjs";
import { PasskeyCalls, PasskeyError } from "./passkeys.mjs";
import { saveName } from "./names.mjs";
import { ensurePlayerKey, playerKey, usePlayerKey } from "./players.mjs";

/** What the page says after each step. */
export const SAID = Object.freeze({
  ready: "Ready.",
  off: "This relay does not offer passkeys or transfer codes.",
  unsupported: "This browser cannot use passkeys: use a transfer code instead.",
  added: "Passkey added: sign in with it on any device.",
  removed: "Passkey removed: it signs in no more. Delete it from your device's passkeys too.",
  signedIn: "Signed in: this browser now plays as your player. Your games are in the lobby.",
  cancelled: "Cancelled.",
});

/** Returns a player key's public id, as leaderboards show it (relay.core.standings.public_id). */
export async function publicId(key) {
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  const digest = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  const board = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`board:${digest}`));
  let binary = "";
  for (const byte of new Uint8Array(board)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").slice(0, 12);
}

/** Returns when a passkey was added, in the reader's words. */
export function addedWords(seconds) {
  return `added ${new Date(seconds * 1000).toLocaleDateString(undefined, { dateStyle: "medium" })}`;
}

/** Puts the page on its elements and answers them. */
export class DevicesPage {
  #document;
  #calls;
  #status;

  constructor(document, calls) {
    this.#document = document;
    this.#calls = calls;
    this.#status = document.getElementById("status");
  }

  #el(id) {
    return this.#document.getElementById(id);
  }

  say(text) {
    this.#status.textContent = text;
  }

  /** Shows the page's parts as the relay and this browser allow, and wires them. */
  async start() {
    if (!(await this.#calls.offered(playerKey() ?? undefined))) {
      await this.#showKey();
      this.say(SAID.off);
      return;
    }
    const usable = typeof globalThis.PublicKeyCredential === "function";
    this.#el("passkeys").hidden = false;
    this.#el("sign-in").hidden = false;
    this.#el("passkey-sign-in").hidden = !usable;
    this.#el("add-passkey").hidden = !usable;
    this.#el("add-passkey").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.#step(() => this.#add());
    });
    this.#el("make-code").addEventListener("click", () => void this.#step(() => this.#code()));
    this.#el("passkey-sign-in").addEventListener("click", () => void this.#step(() => this.#signIn()));
    this.#el("code-sign-in").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.#step(() => this.#redeem());
    });
    await this.#showKey();
    this.say(usable ? SAID.ready : SAID.unsupported);
  }

  /** Runs one step, telling its refusal (or a cancelled authenticator) in plain words. */
  async #step(run) {
    try {
      await run();
    } catch (error) {
      if (error instanceof PasskeyError) this.say(error.words);
      else if (error instanceof DOMException && error.name === "NotAllowedError") this.say(SAID.cancelled);
      else this.say(`Something went wrong: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async #showKey() {
    const key = playerKey();
    const said = this.#el("device-key");
    this.#el("make-code").disabled = key === null;
    if (key === null) {
      said.textContent = "This browser has no player key yet: adding a passkey makes one.";
      this.#list([]);
      return;
    }
    said.textContent = `This browser plays as player ${await publicId(key)}.`;
    this.#list(await this.#calls.list(key));
  }

  #list(passkeys) {
    const list = this.#el("passkey-list");
    list.replaceChildren();
    if (passkeys.length === 0) {
      const empty = this.#document.createElement("li");
      empty.className = "empty";
      empty.textContent = "None yet.";
      list.append(empty);
      return;
    }
    for (const entry of passkeys) {
      const item = this.#document.createElement("li");
      item.dataset.id = entry.id;
      const name = this.#document.createElement("span");
      name.textContent = `${entry.label || "A passkey"} · ${addedWords(entry.created)} `;
      const remove = this.#document.createElement("button");
      remove.type = "button";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove ${entry.label || "this passkey"}`);
      remove.addEventListener("click", () => void this.#step(() => this.#remove(entry.id)));
      item.append(name, remove);
      list.append(item);
    }
  }

  async #add() {
    const key = ensurePlayerKey();
    const label = this.#el("passkey-label").value.trim();
    this.#list(await this.#calls.add(key, label));
    this.#el("passkey-label").value = "";
    await this.#showKey();
    this.say(SAID.added);
  }

  async #remove(id) {
    const key = playerKey();
    if (key === null) return;
    this.#list(await this.#calls.remove(key, id));
    this.say(SAID.removed);
  }

  async #code() {
    const key = playerKey();
    if (key === null) return;
    const { code, until } = await this.#calls.makeCode(key);
    this.#el("code-value").textContent = code;
    this.#el("code-shown").hidden = false;
    const time = new Date(until * 1000).toLocaleTimeString(undefined, { timeStyle: "short" });
    this.say(`Type ${code} on the other device before ${time}. It works once.`);
  }

  async #signIn() {
    await this.#signedIn(await this.#calls.signIn());
  }

  async #redeem() {
    const field = this.#el("transfer-code");
    await this.#signedIn(await this.#calls.redeem(field.value));
    field.value = "";
  }

  /** Keeps the player key signed in with, and its name (the one here stays when the relay knows none). */
  async #signedIn({ player, name }) {
    usePlayerKey(player);
    if (typeof name === "string") saveName(name);
    await this.#showKey();
    this.say(SAID.signedIn);
  }
}

if (typeof document !== "undefined" && document.getElementById("passkey-list") !== null) {
  const page = new DevicesPage(document, new PasskeyCalls(relayBeside(location.href)));
  page.start().catch((error) => page.say(`The relay cannot be reached: ${error instanceof Error ? error.message : String(error)}`));
  const notify = new NotifyControl(document.getElementById("notify"), new PushCalls(relayBeside(location.href)), ensurePlayerKey);
  notify.start().catch(() => {}); // a relay out of reach is said above
}

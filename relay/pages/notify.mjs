// "Notify me" on the Your devices page (docs/web-push.md): this browser asks to be pushed its
// player's turns, low clocks and ends of matches, with every page closed. It asks the
// browser's permission only after a click, subscribes through the pages' service worker with
// the relay's public key, and gives the subscription to the relay with the player key; "Stop
// notifying" takes it back. Hidden when the relay does not push.

import { registerWorker } from "./offline.mjs";
import { devicesCall, fromBase64url } from "./passkeys.mjs";

/** What the control says in each state. */
export const NOTIFY_SAID = Object.freeze({
  on: "Notifications are on in this browser: your turn, a low clock and a match's end.",
  off: "Notifications are off in this browser.",
  blocked: "This browser blocks notifications from this site: allow them in its site settings, then try again.",
  unsupported: "This browser cannot show notifications with its pages closed.",
  busy: "Asking the browser...",
  refused: "Notifications were not allowed.",
});

/** Returns whether this browser can be pushed to (a service worker, the Push API, notifications). */
export function pushSupported(scope = globalThis) {
  return Boolean(scope.navigator?.serviceWorker) && typeof scope.PushManager === "function" && typeof scope.Notification === "function";
}

/** The relay's Web Push calls, for one relay (its base URL). */
export class PushCalls {
  constructor(relay, fetcher = globalThis.fetch.bind(globalThis)) {
    this.relay = relay;
    this.fetcher = fetcher;
  }

  async #call(method, path, key, body) {
    const { answer, found } = await devicesCall(this.fetcher, this.relay, method, path, key, body);
    if (!answer.ok) throw new Error(String(found.error?.message ?? `HTTP ${answer.status}`));
    return found;
  }

  /** Returns the relay's public key (base64url), or null when it does not push. */
  async publicKey() {
    const found = await this.#call("GET", "/v1/push");
    return found.offered === true ? String(found.applicationServerKey) : null;
  }

  /** Gives the relay this browser's subscription for the player key (again: renews it). */
  async subscribe(key, subscription) {
    return this.#call("POST", "/v1/player/push", key, { subscription: subscription.toJSON() });
  }

  /** Takes back the subscription of an endpoint. */
  async unsubscribe(key, endpoint) {
    return this.#call("POST", "/v1/player/push/remove", key, { endpoint });
  }
}

/** The "Notify me" control: a section with its words and its two buttons. */
export class NotifyControl {
  #section;
  #said;
  #on;
  #off;
  #calls;
  #playerKey;
  #scope;
  #publicKey = "";

  /**
   * @param {HTMLElement} section the control's section (hidden until the relay says it pushes)
   * @param {PushCalls} calls
   * @param {() => string} playerKey this browser's player key (made if it has none)
   * @param {typeof globalThis} [scope] where navigator, Notification and PushManager are
   */
  constructor(section, calls, playerKey, scope = globalThis) {
    this.#section = section;
    this.#said = section.querySelector(".notify-said");
    this.#on = section.querySelector(".notify-on");
    this.#off = section.querySelector(".notify-off");
    this.#calls = calls;
    this.#playerKey = playerKey;
    this.#scope = scope;
  }

  #show(state, words = NOTIFY_SAID[state]) {
    this.#section.dataset.state = state;
    this.#said.textContent = words;
    this.#on.hidden = state === "on" || state === "unsupported";
    this.#off.hidden = state !== "on";
    this.#on.disabled = state === "busy";
  }

  /** Shows the control as the relay and this browser allow; renews a subscription kept. */
  async start() {
    const key = await this.#calls.publicKey();
    if (key === null) return; // the relay does not push: the control stays hidden
    this.#publicKey = key;
    this.#section.hidden = false;
    this.#on.addEventListener("click", () => void this.#step(() => this.enable()));
    this.#off.addEventListener("click", () => void this.#step(() => this.disable()));
    if (!pushSupported(this.#scope)) return this.#show("unsupported");
    if (this.#scope.Notification.permission === "denied") return this.#show("blocked");
    const kept = await this.#subscription(false);
    if (kept !== null && this.#scope.Notification.permission === "granted") {
      await this.#calls.subscribe(this.#playerKey(), kept); // renewed: kept 60 days from now
      return this.#show("on");
    }
    this.#show("off");
  }

  async #step(run) {
    try {
      await run();
    } catch (error) {
      this.#show("off", `Notifications could not be turned on or off: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async #registration() {
    const nav = this.#scope.navigator;
    return (await registerWorker(nav)) ?? (await nav.serviceWorker.ready);
  }

  async #subscription(make) {
    const registration = await this.#registration();
    const kept = await registration.pushManager.getSubscription();
    if (kept !== null || !make) return kept;
    return registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: fromBase64url(this.#publicKey),
    });
  }

  /** Asks the browser's permission (after a click), subscribes and tells the relay. */
  async enable() {
    this.#show("busy");
    const permission = await this.#scope.Notification.requestPermission();
    if (permission === "denied") return this.#show("blocked");
    if (permission !== "granted") return this.#show("off", NOTIFY_SAID.refused);
    const subscription = await this.#subscription(true);
    await this.#calls.subscribe(this.#playerKey(), subscription);
    this.#show("on");
  }

  /** Tells the relay to stop, and drops this browser's subscription. */
  async disable() {
    const subscription = await this.#subscription(false);
    if (subscription !== null) {
      await this.#calls.unsubscribe(this.#playerKey(), subscription.endpoint);
      await subscription.unsubscribe();
    }
    this.#show("off");
  }
}

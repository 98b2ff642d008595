// The installed pages' side of working offline: the service worker registered (service-worker.js,
// at the pages' root, so that it serves them all) and a status line that says plainly when the
// browser is offline and what the page shows meanwhile. The lobby and the replay page use it.

/** Where the service worker is, relative to the pages: beside them, so under any sub-path. */
export const WORKER_URL = "service-worker.js";

/**
 * Registers the pages' service worker where the browser has them (a secure context: HTTPS, or
 * localhost); resolves to its registration, or null where there is none or it failed.
 * @param {Navigator} [nav]
 * @returns {Promise<ServiceWorkerRegistration | null>}
 */
export async function registerWorker(nav = globalThis.navigator) {
  if (!nav?.serviceWorker) return null;
  // Once the page has loaded: the worker's first copies of the pages wait for the page's own.
  if (globalThis.document?.readyState !== "complete") {
    await new Promise((loaded) => globalThis.addEventListener("load", loaded, { once: true }));
  }
  try {
    return await nav.serviceWorker.register(WORKER_URL);
  } catch {
    return null; // the pages work as before, online
  }
}

/** Returns whether the browser says it is offline. */
export function isOffline(nav = globalThis.navigator) {
  return nav?.onLine === false;
}

/**
 * A status line at the top of a page's <main> that shows `words()` while the browser is offline
 * (the words of the moment: what the page shows meanwhile), and marks <body data-offline>.
 * Hidden while online.
 */
export class OfflineLine {
  #element;
  #words;

  /**
   * @param {HTMLElement} place the page's <main>
   * @param {() => string} words what the line says while offline
   */
  constructor(place, words) {
    const document = place.ownerDocument;
    this.#words = words;
    this.#element = document.createElement("p");
    this.#element.className = "offline-line";
    this.#element.setAttribute("role", "status");
    this.#element.hidden = true;
    place.prepend(this.#element);
    const window = document.defaultView;
    window?.addEventListener("online", () => this.update());
    window?.addEventListener("offline", () => this.update());
    this.update();
  }

  /** Shows or hides the line as the browser is offline or not, with the words of now. */
  update() {
    const offline = isOffline(this.#element.ownerDocument.defaultView?.navigator);
    const body = this.#element.ownerDocument.body;
    if (offline) body.dataset.offline = "true";
    else delete body.dataset.offline;
    this.#element.hidden = !offline;
    this.#element.textContent = offline ? this.#words() : "";
  }
}

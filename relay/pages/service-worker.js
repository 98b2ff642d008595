// The pages' service worker: it keeps every page file the relay serves (offline-files.js, which
// the relay writes: the files and their version, a hash of their contents) and answers them from
// its cache first, so that the lobby, Your games and the replay of a match seen before open
// offline. The relay's protocol (v1/...) is never answered from the cache, never kept, never
// touched: moves and long polls go to the network as if there were no worker. A relay whose
// pages changed has a new version: its worker takes over at once and drops the old copies.
// A classic worker script (not a module), for every browser that runs service workers.

importScripts("offline-files.js");

/** @type {{version: string, files: string[]}} */
const OFFLINE = /** @type {any} */ (self).OFFLINE;
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** The pages' root: the worker's scope (a relay's --prefix, or nginx's sub-path, included). */
const SCOPE = worker.registration.scope;

/** Cache names are per origin: this scope's own start with this, so that two relays under
 * two paths of one origin keep apart. */
const OURS = `movewire-pages ${SCOPE} `;
const CACHE = `${OURS}${OFFLINE.version}`;

/** The files kept, as absolute URLs. */
const FILES = new Set(OFFLINE.files.map((file) => new URL(file, SCOPE).href));

/** The relay's protocol: always the network. */
const API = new URL("v1/", SCOPE).href;

worker.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Revalidated with the relay (an ETag's 304), never taken from the HTTP cache unasked.
      await cache.addAll([...FILES].map((url) => new Request(url, { cache: "no-cache" })));
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(OURS) && name !== CACHE) await caches.delete(name);
      }
      await worker.clients.claim();
    })(),
  );
});

/** Returns the URL a request is kept under: without its query for a page opened (a link's
 * `?...` or `#...` names no other file), else as asked. */
function keptAs(request) {
  const url = new URL(request.url);
  url.hash = "";
  if (request.mode === "navigate") url.search = "";
  return url.href;
}

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  // Not ours to answer: the protocol, anything but GET, and what the relay does not list.
  if (request.method !== "GET" || request.url.startsWith(API)) return;
  const url = keptAs(request);
  if (!FILES.has(url)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const kept = await cache.match(url);
      if (kept !== undefined) return kept;
      const answer = await fetch(request);
      if (answer.ok) await cache.put(url, answer.clone());
      return answer;
    })(),
  );
});

// Web Push (docs/web-push.md): the relay pushes a small notice (its title, body, tag: one per
// match, a newer replacing an older, and the page to open, relative to the pages' root). The
// worker shows it; a tap focuses a tab already on that page, or opens it, never outside the
// pages' root (a notice naming another site, or the protocol, opens the lobby).

/** Returns the page a notice opens: within the worker's scope and not the protocol, else the
 * pages' root. @param {unknown} url */
function pageOf(url) {
  const target = new URL(typeof url === "string" ? url : "", SCOPE);
  return target.href.startsWith(SCOPE) && !target.href.startsWith(API) ? target.href : SCOPE;
}

/** Returns a notice's text field, cut to at most `most` characters. @param {unknown} value */
function words(value, most) {
  return typeof value === "string" ? value.slice(0, most) : "";
}

/** Keeps the worker alive for `work`; an event the test dispatches (untrusted) cannot be kept,
 * and its work runs anyway. @param {ExtendableEvent} event @param {Promise<unknown>} work */
function keep(event, work) {
  if (event.isTrusted) event.waitUntil(work);
}

worker.addEventListener("push", (event) => {
  /** @type {Record<string, unknown>} */
  let notice = {};
  try {
    notice = event.data?.json() ?? {};
  } catch {
    // Not JSON: shown with the default words.
  }
  const title = words(notice.title, 100) || "movewire";
  const options = {
    body: words(notice.body, 300),
    tag: words(notice.tag, 200) || undefined,
    icon: new URL("icon-192.png", SCOPE).href,
    data: { url: pageOf(notice.url) },
  };
  keep(event, worker.registration.showNotification(title, options));
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = pageOf(event.notification.data?.url);
  keep(
    event,
    (async () => {
      const tabs = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = tabs.find((tab) => tab.url === url);
      if (open !== undefined) await open.focus();
      else await worker.clients.openWindow(url);
    })(),
  );
});

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

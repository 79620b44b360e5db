// The anotador's service worker: the page opens and works with no network once it has been
// installed, the very first load without network included, because everything the page loads is
// stored when the worker installs, not when the page happens to ask for it.
//
// Its scope is /anotador/: it controls the anotador's pages and nothing else. The game and the
// Repaso need the server live (a WebSocket, a mesa's record), so keeping their files would buy
// nothing offline and could hand a running game a stale module. The few shared files the anotador
// loads from outside its folder (the words, the favicon) are stored here too; the worker answers
// them only to the anotador's pages, the only ones it controls.
//
// The server writes VERSION (a digest of the files below as it serves them): a changed file is a
// changed worker, which the browser installs beside the running one. It waits there until the
// player says so («Hay una versión nueva: actualizar», /js/install.js): never in the middle of a
// hand by itself.
const VERSION = "__VERSION__";
const CACHE = `fichaflow-anotador-${VERSION}`;
const SHELL = [
  "/anotador/",
  "/anotador/app.js",
  "/anotador/i18n.js",
  "/anotador/outbox.js",
  "/anotador/anotador.css",
  "/anotador/manifest.webmanifest",
  "/js/i18n.js",
  "/js/tiles.js",
  "/js/dom.js",
  "/js/install.js",
  "/js/region.js",
  "/i18n/es.json",
  "/i18n/en.json",
  "/favicon.svg",
];

self.addEventListener("install", (event) => {
  // Fresh copies from the server, not from the HTTP cache: one version, all of a piece.
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" })))),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("fichaflow-anotador-") && name !== CACHE) await caches.delete(name);
    }
    // The first install takes the open page at once (nothing older runs it); an update only
    // activates when the player asked for it, and that page reloads itself.
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "update") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Network only: what is sent to the server, other sites, and every answer of the API (the
  // sheet's state and its outbox's actions must be live; the page keeps its own copy).
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate" && url.pathname.startsWith("/anotador/")) {
    // ?mesa=… and ?ver=… are the same page.
    event.respondWith(fromCache("/anotador/", request));
  } else if (SHELL.includes(url.pathname)) {
    event.respondWith(fromCache(url.pathname, request));
  }
});

/** The stored copy of this version, or the network when it is missing (a cleared cache). */
async function fromCache(path, request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(path)) || fetch(request);
}

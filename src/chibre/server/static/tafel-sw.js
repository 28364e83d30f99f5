// The Jasstafel calculator's service worker (served as /tafel-sw.js, reach /tafel): it keeps
// the calculator's page and files, so that the page opens where the network does not reach.
// The page and its files are answered from the cache at once and refreshed from the network
// behind (a scorer with poor reception waits for nothing); the words (/api/messages) too; the sheets themselves are never
// cached here: the page keeps them in IndexedDB (tafel-sync.js) and the API is always asked.
"use strict";

const CACHE = "chibre-tafel-2";
const SUITS = ["D", "H", "S", "C"];
const FILES = [
  "/tafel",
  "/static/tafel.js",
  "/static/tafel-sync.js",
  "/static/tafel.css",
  "/static/style.css",
  "/static/i18n.js",
  "/api/messages",
  "/static/cards.js",
  "/static/tafel.webmanifest",
  "/static/tafel-icon.svg",
  "/cards/french/HJ.svg",
  ...["french", "swiss"].flatMap((deck) => SUITS.map((s) => `/cards/${deck}/${s}A.svg`)),
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

function kept(url) {
  if (url.origin !== self.location.origin) return false;
  if (url.pathname === "/api/messages") return true; // the words, kept like the page
  return url.pathname === "/tafel" || url.pathname.startsWith("/static/") || url.pathname.startsWith("/cards/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || !kept(url)) return; // the API goes to the network only
  const key = url.pathname === "/tafel" ? "/tafel" : request; // the page, whatever its hash
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const cached = await cache.match(key);
      const fresh = fetch(request)
        .then((response) => {
          if (response.ok) cache.put(key, response.clone());
          return response;
        })
        .catch((error) => {
          if (cached) return cached;
          throw error;
        });
      if (cached) {
        event.waitUntil(fresh.catch(() => undefined));
        return cached;
      }
      return fresh;
    }),
  );
});

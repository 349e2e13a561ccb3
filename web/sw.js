// The web client's service worker: the pages' shell (HTML, scripts, styles, icons) kept so that
// a page opens without the network, and says "offline" itself; the API is never answered from
// here: its requests go to the network, and fail as such when it cannot be reached (a stale
// board or move list would be worse than an honest "offline").
//
// Shell files: network first (the server's no-cache: a fresh copy when it answers), the cached
// copy when it does not. A page address (/play/x, /replay/x...) falls back to its page's file.

const CACHE = "gameserver-shell-v1";
const SHELL = [
  "/web/index.html", "/web/play.html", "/web/replay.html", "/web/profile.html", "/web/leaderboard.html",
  "/web/style.css", "/web/api.js", "/web/i18n.js", "/web/status.js", "/web/events.js", "/web/lobby.js",
  "/web/play.js", "/web/chat.js", "/web/person.js", "/web/messages.html", "/web/messages.js", "/web/replay.js", "/web/ratings.js", "/web/rules.js", "/web/presence.js", "/web/install.js",
  "/web/analysis.js", "/web/account.html", "/web/account.js", "/web/push.js", "/web/boards.css",
  "/web/board.js", "/web/moves.js", "/web/svg.js", "/web/boards/splendor.js", "/web/boards/witches.js",
  "/web/boards/setup.js", "/web/boards/fairy-tile.js", "/web/boards/smallworld-of-warcraft.js",
  "/web/vendor/marked/marked.esm.js", "/web/vendor/dompurify/purify.es.mjs",
  "/web/icons/icon-192.png", "/web/icons/icon-512.png", "/manifest.webmanifest",
  "/web/tournaments.html", "/web/tournament.html", "/web/tournaments.js",
];
// The page a navigation shows, by the first segment of its path.
const PAGES = { "": "/web/index.html", play: "/web/play.html", replay: "/web/replay.html",
  profile: "/web/profile.html", leaderboard: "/web/leaderboard.html", messages: "/web/messages.html",
  tournament: "/web/tournament.html" };

// The push helper's part (web/sw-push.js), when the server has it: the worker works without it.
try { importScripts("/sw-push.js"); } catch (err) { /* no push on this server */ }

self.addEventListener("install", (event) => {
  // Each file on its own: one missing file (a board renamed) does not keep the others out.
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(SHELL.map((url) => cache.add(url).catch(() => null))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function shellFile(request) {
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return null;
  if (request.mode === "navigate") {
    const first = url.pathname.split("/")[1] || "";
    if (first in PAGES && (first === "" || url.pathname.split("/").length === 3)) return PAGES[first];
    return null;
  }
  if (url.pathname.startsWith("/web/") || url.pathname === "/manifest.webmanifest") return url.pathname;
  return null; // the API: never from the cache
}

self.addEventListener("fetch", (event) => {
  const file = shellFile(event.request);
  if (!file) return; // the browser's own fetch, untouched
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const fresh = await fetch(event.request);
      if (fresh.ok) cache.put(file, fresh.clone()); // a page under its page file's name
      return fresh;
    } catch (err) {
      const kept = await cache.match(file);
      if (kept) return kept;
      throw err;
    }
  })());
});

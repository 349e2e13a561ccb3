// The service worker's Web Push handlers (issue 36). web/sw.js loads them with
// importScripts('/sw-push.js'); registered alone, this file is a complete service worker too.
//
// A push's payload is the server's PushMessage (openapi.yaml): {type, game_id, game_type,
// title, body, url, version, at, lang}, already in the player's language. Each game has one
// notification (its `tag`): a newer notice of a game replaces the older one, as the server's
// `Topic` header does at the push service. An account notice has no game: its `url` is the
// account page.

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (e) {
    message = { body: event.data ? event.data.text() : "" };
  }
  const title = message.title || "Game server";
  const options = {
    body: message.body || "",
    // An account notice (issue 51) is its own: a newer one never hides a refused attempt.
    tag: message.game_id ? "game-" + message.game_id
      : String(message.type || "").startsWith("account_") ? "account-" + message.at : "game-server",
    renotify: ["your_turn", "clock_warning", "account_change_refused"].includes(message.type),
    lang: message.lang || "",
    data: { url: message.url || "/", type: message.type, game_id: message.game_id, version: message.version },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (new URL(client.url).pathname === target.pathname && "focus" in client) return client.focus();
    }
    if (self.clients.openWindow) return self.clients.openWindow(target.href);
    return undefined;
  })());
});

// The browser replaced the subscription (its push service rotated it): nothing to do here
// without the player's key, which a service worker does not hold; the page subscribes again
// at its next visit (web/push.js: the same endpoint posted again only updates it).
self.addEventListener("pushsubscriptionchange", () => {});

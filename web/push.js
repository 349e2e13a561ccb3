// Web Push for the reference web client (issue 36): asks the person's permission, subscribes
// this browser's service worker with the server's VAPID key and registers the subscription
// to the player (POST /players/me/push-subscriptions). The push handlers are web/sw-push.js.
//
//   import { api } from "./api.js";
//   import { enablePush } from "./push.js";
//   const result = await enablePush(api, { token: playerKey });
//   // {ok: true, subscription} or {ok: false, reason: "unsupported" | "denied" | "default"}
//
// `api` is web/api.js's api(path, {method, token, body}) (or any function of that shape);
// `token` the player's key (none when `api` adds it itself); `registration` a service worker
// registration (default: the page's, once ready); `lang` the messages' language (default:
// the subscribing request's, as the server negotiates it).

export function supported() {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator &&
    typeof window !== "undefined" && "PushManager" in window && "Notification" in window;
}

// The VAPID key as pushManager.subscribe takes it (base64url to bytes).
export function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(padded);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(subscription, key) {
  const held = subscription.options && subscription.options.applicationServerKey;
  if (!held) return true; // the browser does not say: keep it, the server answers if not
  const bytes = new Uint8Array(held);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

export async function enablePush(api, { token, registration, lang } = {}) {
  if (!supported()) return { ok: false, reason: "unsupported" };
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") return { ok: false, reason: permission };
  const reg = registration || (await navigator.serviceWorker.ready);
  const { public_key: publicKey } = await api("/push/vapid-public-key");
  const key = keyBytes(publicKey);
  let subscription = await reg.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe(); // made with a key the server no longer signs with
    subscription = null;
  }
  if (!subscription) {
    subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }
  const body = subscription.toJSON();
  if (lang) body.lang = lang;
  const saved = await api("/players/me/push-subscriptions", { method: "POST", token, body });
  return { ok: true, subscription: saved };
}

// Stops this browser's pushes: the server forgets the subscription, the browser drops it.
export async function disablePush(api, { token, registration } = {}) {
  if (!supported()) return false;
  const reg = registration || (await navigator.serviceWorker.ready);
  const subscription = await reg.pushManager.getSubscription();
  if (!subscription) return false;
  const listed = await api("/players/me/push-subscriptions", { token });
  const mine = listed.subscriptions.find((s) => s.endpoint === subscription.endpoint);
  if (mine) await api(`/players/me/push-subscriptions/${encodeURIComponent(mine.id)}`, { method: "DELETE", token });
  await subscription.unsubscribe();
  return true;
}

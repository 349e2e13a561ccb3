// The public API, as the pages use it: fetch wrappers, problem+json turned into sentences a
// person can act on, and the tokens this browser holds (localStorage: the server shows a
// token once, at creation).

const STORE = "gameserver.games";

export class ApiProblem extends Error {
  constructor(status, body, retryAfter) {
    super(body.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || "http_" + status;
    this.version = body.version;
    this.retryAfter = retryAfter;
  }
  // What a person should read, and do.
  get sentence() {
    switch (this.code) {
      case "version_conflict": return "Someone moved first: the board was refreshed, choose again.";
      case "not_your_turn": return "It is not your turn: wait for the others.";
      case "rate_limited": case "too_many_streams":
        return `Too many requests: wait ${this.retryAfter || "a few"} s and try again.`;
      case "unknown_game": return "There is no such game (finished games may have expired).";
      case "invalid_token": return "This browser's key for the game is not valid: you are watching.";
      case "illegal_move": return "That move is not allowed now: " + this.message;
      case "store_unavailable": return "The server's storage is unavailable: retrying shortly.";
      default: return this.message;
    }
  }
}

export async function api(path, { method = "GET", token, body, headers = {} } = {}) {
  const h = { Accept: "application/json", ...headers };
  if (token) h.Authorization = "Bearer " + token;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 204) return null;
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiProblem(res.status, data, res.headers.get("Retry-After"));
  return data;
}

export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The games this browser made or opened (until the lobby listing lands: GET /games).
export function knownGames() {
  try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch { return {}; }
}

export function remember(id, fields) {
  const all = knownGames();
  all[id] = { ...(all[id] || { id, first_seen: Date.now() }), ...fields, last_seen: Date.now() };
  localStorage.setItem(STORE, JSON.stringify(all));
  return all[id];
}

export function forget(id) {
  const all = knownGames();
  delete all[id];
  localStorage.setItem(STORE, JSON.stringify(all));
}

// A link may carry a seat's token (#token=...): it is kept and dropped from the address bar.
export function tokenFor(id) {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromLink = params.get("token");
  if (fromLink) {
    remember(id, { token: fromLink });
    params.delete("token");
    history.replaceState(null, "", location.pathname + location.search + (params.toString() ? "#" + params : ""));
  }
  return knownGames()[id]?.token || null;
}

export function gameIdFromPath() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

export function seatName(game, seat) {
  if (seat === null || seat === undefined) return "system";
  const s = game.seats?.[seat];
  if (!s) return `seat ${seat}`;
  const who = s.bot ? `${s.name} (bot)` : s.name;
  return game.you === seat ? `${who} — you` : who;
}

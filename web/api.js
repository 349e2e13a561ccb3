// The public API, as the pages use it: fetch wrappers, problem+json turned into sentences a
// person can act on, and what this browser holds (localStorage: the server shows a key or a
// token once): the player (its name, id and key, which opens every game the player sits in),
// and per game a seat's token or an invite code.

const STORE = "gameserver.games";
const PLAYER = "gameserver.player";

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
      case "invalid_player_key": return "This browser's player key is not known to the server any more: the lobby makes a new player.";
      case "seat_taken": case "game_started": return "Someone took that seat first: the list was refreshed.";
      case "invalid_invite": return "That seat is by invitation: open the invite link the game's creator shared.";
      case "already_seated": return "You already sit in this game.";
      case "seat_reserved": return "That seat is kept for another player for a few minutes.";
      case "illegal_move": return "That move is not allowed now: " + this.message;
      case "store_unavailable": return "The server's storage is unavailable: retrying shortly.";
      case "already_matched": return "Your game was found already: opening it.";
      case "unknown_player": return "There is no such player.";
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

// A whole history in one request (GET /games/{id}/events as NDJSON): the events, in order.
export async function apiNdjson(path, { token } = {}) {
  const h = { Accept: "application/x-ndjson" };
  if (token) h.Authorization = "Bearer " + token;
  const res = await fetch(path, { headers: h });
  if (!res.ok) throw new ApiProblem(res.status, await res.json().catch(() => ({})), res.headers.get("Retry-After"));
  return (await res.text()).split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
}

export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The player this browser is (POST /players made it): {id, name, key}, or null.
export function player() {
  try { return JSON.parse(localStorage.getItem(PLAYER)); } catch { return null; }
}

export function setPlayer(p) {
  if (p) localStorage.setItem(PLAYER, JSON.stringify({ id: p.id, name: p.name, key: p.key }));
  else localStorage.removeItem(PLAYER);
  return p;
}

// The player, made now when this browser has none yet; renamed when `name` is another.
export async function ensurePlayer(name) {
  let p = player();
  if (p) {
    if (!name || name === p.name) return p;
    try {
      const me = await api("/players/me", { method: "PATCH", token: p.key, body: { name } });
      return setPlayer({ ...p, name: me.name });
    } catch (err) {
      if (!(err instanceof ApiProblem) || !["invalid_player_key", "invalid_token", "token_required"].includes(err.code)) throw err;
      setPlayer(null); // the server forgot this key: become a new player
    }
  }
  const made = await api("/players", { method: "POST", body: { name: name || "Player" } });
  return setPlayer(made);
}

// The games this browser holds a seat's token or an invite code for.
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

// A link may carry a seat's token (#token=...) or an invite code (#invite=...): kept, and the
// token dropped from the address bar. Without a seat's token, the player's key (which answers
// as the player's seat, or as a spectator when the player sits elsewhere).
export function tokenFor(id) {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromLink = params.get("token");
  if (params.get("invite")) remember(id, { invite: params.get("invite") });
  if (fromLink) {
    remember(id, { token: fromLink });
    params.delete("token");
    history.replaceState(null, "", location.pathname + location.search + (params.toString() ? "#" + params : ""));
  }
  return knownGames()[id]?.token || player()?.key || null;
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
  if (!s.bot && !s.name) return s.invite ? "invited seat (free)" : "open seat (free)";
  const who = s.bot ? `${s.name} (bot)` : s.name;
  return game.you === seat ? `${who} — you` : who;
}
